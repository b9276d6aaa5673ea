import type { MisbehaveKind } from "../../scenario/model-faults.js";
import { cutArguments } from "./answer-text.js";
import { CONTENT_KINDS, type Outgoing, TOOL_KINDS, type Verdict } from "./rewrite.js";
import type { SseMessage } from "./sse-messages.js";

/**
 * One provider's rewrite of one event stream, fed its events in order. A rewrite keeps the
 * stream valid for the provider's clients: its framing, event order, indices and terminal event.
 * What every provider's stream rewrite shares: the kind it applies, its verdict, and when the
 * verdict is known. A stream shows its provider's shape with its first answer event; an event of
 * another shape before that means the kind cannot apply. The kinds that act on the whole answer
 * apply to any stream of the right shape; the tool kinds only once a tool call was seen. Only
 * the first tool call's argument fragments are held, by the kinds that cut them, and released
 * cut as one fragment when it ends (or the stream does).
 */
export abstract class ProviderStreamRewrite {
  protected readonly kind: MisbehaveKind;
  protected state: Verdict = "pending";
  /** An event of the provider's shape was seen. */
  protected shaped = false;
  /** The first tool call's index (as its provider numbers it), once seen. */
  protected toolAt: number | null = null;
  /** Its argument fragments, held until it ends (tool_args_invalid, length_mid_tool). */
  protected held: string[] | null = null;

  constructor(kind: MisbehaveKind) {
    this.kind = kind;
  }

  get verdict(): Verdict {
    return this.state;
  }

  /** The events to send in place of `message` (none to drop it). */
  abstract event(message: SseMessage): readonly Outgoing[];

  /** The upstream stream ended: the held arguments, if any, go out. Settles the verdict. */
  end(): readonly Outgoing[] {
    const rest = this.held === null ? [] : this.release(null);
    this.settle();
    return rest;
  }

  /** The held arguments cut (`full`: the whole arguments, when the stream said them) as the provider's event. */
  protected abstract release(full: string | null): Outgoing[];

  /** The first tool call starts at `at`: the tool kinds apply, and those that cut its arguments hold them. */
  protected startToolCall(at: number): void {
    this.toolAt = at;
    this.state = "applied";
    if (this.kind !== "unknown_tool") this.held = [];
  }

  /** The held fragments (or `full`) cut, no longer held; null when none are held. */
  protected takeHeld(full: string | null): string | null {
    const held = this.held;
    this.held = null;
    return held === null ? null : cutArguments(full ?? held.join(""));
  }

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
