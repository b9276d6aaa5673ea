import { isEventStream } from "../support/http-headers.js";
import { BodyRewriteRelay, type RewriteMode } from "./body-rewrite-relay.js";
import type { CanaryType } from "./corruption/canary.js";
import { corruptJson } from "./corruption/corrupt-json.js";
import { EventStreamRewriter } from "./corruption/event-stream.js";
import { pointerTokens } from "./corruption/json-pointer.js";
import type { FaultCanary, FaultExecutor, FaultOf, ResponseHeaders, ResponseRelay } from "./types.js";

/**
 * `http_corrupt` (docs/faults.md, corruption faults): the request is forwarded and the
 * upstream's answer relayed with the value at `pointer` replaced by the fault's canary. A JSON
 * body is read whole (as the proxy reads every body that is not an event stream) and rewritten
 * in one pass, its length recomputed; an event stream is relayed event by event until the first
 * event whose JSON data the pointer resolves in, and untouched after it.
 */
export const httpCorrupt: FaultExecutor<FaultOf<"http_corrupt">> = {
  parameters: () => ({}),
  execute(fault, context) {
    const canary = context.canary;
    if (canary === null) {
      context.forward();
      return;
    }
    const tokens = fault.pointer === null ? null : pointerTokens(fault.pointer);
    context.forward((ownRelay) => corruptingRelay(ownRelay, tokens, canary, context.beforeTerminal));
  },
};

/**
 * A relay that hands `own` the response with the value at `tokens` replaced by the canary (a
 * JSON body, or the first event of a stream whose JSON data has it). Whatever happens, the
 * fault's evidence is recorded before the operation's terminal event. Shared with
 * `mcp_corrupt_result` over Streamable HTTP, whose tokens start at the JSON-RPC `result`.
 */
export function corruptingRelay(
  own: ResponseRelay,
  tokens: readonly string[] | null,
  canary: FaultCanary,
  beforeTerminal: (note: () => void) => void,
): ResponseRelay {
  const decision = new Decision(canary);
  beforeTerminal(() => decision.notReplaced("pointer_not_found"));
  return new CorruptingRelay(own, tokens, decision);
}

/** Records once what the fault did to this operation. */
class Decision {
  readonly #canary: FaultCanary;
  #made = false;
  /** Whether some event of a stream carried JSON data (else the stream is `not_json`). */
  sawJson = false;

  constructor(canary: FaultCanary) {
    this.#canary = canary;
  }

  get made(): boolean {
    return this.#made;
  }

  get canary(): FaultCanary {
    return this.#canary;
  }

  replaced(type: CanaryType, pointer: string | null): void {
    if (this.#made) return;
    this.#made = true;
    this.#canary.replaced(type, pointer);
  }

  notReplaced(reason: "pointer_not_found" | "not_json" | "upstream_failed"): void {
    if (this.#made) return;
    this.#made = true;
    this.#canary.notReplaced(reason);
  }
}

class CorruptingRelay extends BodyRewriteRelay {
  readonly #tokens: readonly string[] | null;
  readonly #decision: Decision;
  readonly #stream: EventStreamRewriter;

  constructor(own: ResponseRelay, tokens: readonly string[] | null, decision: Decision) {
    super(own);
    this.#tokens = tokens;
    this.#decision = decision;
    this.#stream = new EventStreamRewriter((data) => this.#rewriteEvent(data));
  }

  protected modeOf(_status: number, headers: ResponseHeaders): RewriteMode {
    const encoding = headers["content-encoding"];
    if (encoding !== undefined && String(encoding).toLowerCase() !== "identity") {
      // A compressed body is not read here: nothing can be replaced in it.
      this.#decision.notReplaced("not_json");
      return "untouched";
    }
    return isEventStream(headers) ? "stream" : "whole";
  }

  protected streamData(chunk: Buffer): void {
    const text = this.#stream.push(chunk);
    if (text !== "") this.own.data(Buffer.from(text, "utf8"));
  }

  protected streamEnd(): void {
    const text = this.#stream.end();
    this.#decision.notReplaced(this.#decision.sawJson ? "pointer_not_found" : "not_json");
    if (text !== "") this.own.data(Buffer.from(text, "utf8"));
  }

  protected override tooLarge(): void {
    this.#decision.notReplaced("not_json");
  }

  override error(error: Error): void {
    this.#decision.notReplaced("upstream_failed");
    super.error(error);
  }

  protected rewriteWhole(body: Buffer, headers: ResponseHeaders): [ResponseHeaders, Buffer] {
    const outcome = corruptJson(body.toString("utf8"), this.#tokens, this.#decision.canary.values);
    if (outcome.kind !== "corrupted") {
      this.#decision.notReplaced(outcome.kind);
      return [headers, body];
    }
    this.#decision.replaced(outcome.type, outcome.pointer);
    return [headers, Buffer.from(outcome.text, "utf8")];
  }

  #rewriteEvent(data: string): string | null {
    if (this.#decision.made) return null;
    const outcome = corruptJson(data, this.#tokens, this.#decision.canary.values);
    if (outcome.kind === "not_json") return null;
    this.#decision.sawJson = true;
    if (outcome.kind !== "corrupted") return null;
    this.#decision.replaced(outcome.type, outcome.pointer);
    return outcome.text;
  }
}
