import type { MisbehaveKind } from "../../scenario/model-faults.js";
import { CONTENT_KINDS, type Outgoing, TOOL_KINDS, type Verdict } from "./rewrite.js";
import type { SseMessage } from "./sse-messages.js";

/**
 * One provider's rewrite of one event stream, fed its events in order. A rewrite keeps the
 * stream valid for the provider's clients: its framing, event order, indices and terminal event.
 * What every provider's stream rewrite shares: the kind it applies, its verdict, and when the
 * verdict is known. A stream shows its provider's shape with its first answer event; an event of
 * another shape before that means the kind cannot apply. The kinds that act on the whole answer
 * apply to any stream of the right shape; the tool kinds only once a tool call was seen.
 */
export abstract class ProviderStreamRewrite {
  protected readonly kind: MisbehaveKind;
  protected state: Verdict = "pending";
  /** An event of the provider's shape was seen. */
  protected shaped = false;

  constructor(kind: MisbehaveKind) {
    this.kind = kind;
  }

  get verdict(): Verdict {
    return this.state;
  }

  /** The events to send in place of `message` (none to drop it). */
  abstract event(message: SseMessage): readonly Outgoing[];

  /** The upstream stream ended: what is still to send (held events). Settles the verdict. */
  abstract end(): readonly Outgoing[];

  /** Whether the kind acts on the whole answer (its content or its end), tool call or not. */
  protected get actsOnWholeAnswer(): boolean {
    return CONTENT_KINDS.has(this.kind) || this.kind === "missing_finish";
  }

  /** An event without the provider's shape: sent as it is; before any shaped event, the kind cannot apply. */
  protected unshaped(message: SseMessage): readonly Outgoing[] {
    if (!this.shaped && message.data !== null) this.state = "not_applicable";
    return [message.raw];
  }

  /** An event of the provider's shape arrived: the whole-answer kinds apply from now on. */
  protected markShaped(): void {
    this.shaped = true;
    if (this.actsOnWholeAnswer) this.state = "applied";
  }

  /** The stream ended: a verdict still pending is settled (a tool kind never saw its tool call). */
  protected settle(): void {
    if (this.state === "pending")
      this.state = this.shaped && !TOOL_KINDS.has(this.kind) ? "applied" : "not_applicable";
  }
}
