import { BODY_LIMIT } from "../support/body-limit.js";
import { isEventStream } from "../support/http-headers.js";
import type { CanaryType } from "./corruption/canary.js";
import { corruptJson } from "./corruption/corrupt-json.js";
import { EventStreamRewriter } from "./corruption/event-stream.js";
import { pointerTokens } from "./corruption/json-pointer.js";
import type {
  FaultCanary,
  FaultExecutor,
  FaultOf,
  ResponseHeaders,
  ResponseRelay,
  UpstreamControl,
} from "./types.js";

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

class CorruptingRelay implements ResponseRelay {
  readonly #own: ResponseRelay;
  readonly #tokens: readonly string[] | null;
  readonly #decision: Decision;
  #mode: "buffer" | "stream" | "pass" = "buffer";
  #status = 0;
  #headers: ResponseHeaders = {};
  #control: UpstreamControl | null = null;
  #chunks: Buffer[] = [];
  #size = 0;
  #stream: EventStreamRewriter | null = null;

  constructor(own: ResponseRelay, tokens: readonly string[] | null, decision: Decision) {
    this.#own = own;
    this.#tokens = tokens;
    this.#decision = decision;
  }

  start(status: number, headers: ResponseHeaders, control: UpstreamControl): void {
    const encoding = headers["content-encoding"];
    if (encoding !== undefined && String(encoding).toLowerCase() !== "identity") {
      // A compressed body is not read here: nothing can be replaced in it.
      this.#decision.notReplaced("not_json");
      this.#mode = "pass";
    } else if (isEventStream(headers)) {
      this.#mode = "stream";
      this.#stream = new EventStreamRewriter((data) => this.#rewriteEvent(data));
    }
    if (this.#mode === "buffer") {
      this.#status = status;
      this.#headers = headers;
      this.#control = control;
      return;
    }
    this.#own.start(status, headers, control);
  }

  data(chunk: Buffer): void {
    if (this.#mode === "pass") {
      this.#own.data(chunk);
      return;
    }
    if (this.#mode === "stream") {
      const text = (this.#stream as EventStreamRewriter).push(chunk);
      if (text !== "") this.#own.data(Buffer.from(text, "utf8"));
      return;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    if (this.#size > BODY_LIMIT) {
      // Too large to read: the proxy's own relay answers it as it answers any such body.
      this.#decision.notReplaced("not_json");
      this.#releaseBuffered(Buffer.concat(this.#chunks));
      this.#mode = "pass";
    }
  }

  end(): void {
    if (this.#mode === "stream") {
      const text = (this.#stream as EventStreamRewriter).end();
      this.#decision.notReplaced(this.#decision.sawJson ? "pointer_not_found" : "not_json");
      if (text !== "") this.#own.data(Buffer.from(text, "utf8"));
    } else if (this.#mode === "buffer") {
      const body = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
      this.#releaseBuffered(this.#corruptBody(body));
    }
    this.#own.end();
  }

  error(error: Error): void {
    this.#decision.notReplaced("upstream_failed");
    this.#own.error(error);
  }

  #corruptBody(body: Buffer): Buffer {
    const outcome = corruptJson(body.toString("utf8"), this.#tokens, this.#decision.canary.values);
    if (outcome.kind !== "corrupted") {
      this.#decision.notReplaced(outcome.kind);
      return body;
    }
    this.#decision.replaced(outcome.type, outcome.pointer);
    return Buffer.from(outcome.text, "utf8");
  }

  #releaseBuffered(body: Buffer): void {
    this.#own.start(this.#status, this.#headers, this.#control as UpstreamControl);
    if (body.length > 0) this.#own.data(body);
    this.#chunks = [];
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
