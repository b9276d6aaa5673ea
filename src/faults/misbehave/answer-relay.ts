import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { MisbehaveKind, MisbehaveProvider } from "../../scenario/model-faults.js";
import { BODY_LIMIT } from "../../support/body-limit.js";
import { isEventStream } from "../../support/http-headers.js";
import { BodyRewriteRelay, type RewriteMode } from "../body-rewrite-relay.js";
import type { FaultContext, FaultOf, ResponseHeaders, ResponseRelay } from "../types.js";
import { MessagesStreamRewrite, rewriteMessageJson } from "./anthropic-messages.js";
import { ChatStreamRewrite, rewriteChatJson } from "./openai-chat.js";
import { ResponsesStreamRewrite, rewriteResponsesJson } from "./openai-responses.js";
import type { ProviderStreamRewrite } from "./provider-stream-rewrite.js";
import { asObject, type JsonRewrite, type Outgoing } from "./rewrite.js";
import { type SseMessage, SseSplitter } from "./sse-messages.js";

/** Each provider's rewrite of a JSON answer and of an event stream. */
const REWRITES: Readonly<
  Record<MisbehaveProvider, { json: JsonRewrite; stream: new (kind: MisbehaveKind) => ProviderStreamRewrite }>
> = {
  openai: { json: rewriteChatJson, stream: ChatStreamRewrite },
  openai_responses: { json: rewriteResponsesJson, stream: ResponsesStreamRewrite },
  anthropic: { json: rewriteMessageJson, stream: MessagesStreamRewrite },
};

/** The content codings a JSON answer is decoded from before its rewrite (at most 10 MiB decoded). */
const DECODERS: Readonly<Record<string, (body: Buffer) => Buffer>> = {
  gzip: (body) => gunzipSync(body, { maxOutputLength: BODY_LIMIT }),
  "x-gzip": (body) => gunzipSync(body, { maxOutputLength: BODY_LIMIT }),
  deflate: (body) => inflateSync(body, { maxOutputLength: BODY_LIMIT }),
  br: (body) => brotliDecompressSync(body, { maxOutputLength: BODY_LIMIT }),
};

export type MisbehaveSpec = Pick<FaultOf<"llm_misbehave">, "provider" | "kind">;

/**
 * The relay of `llm_misbehave` (docs/faults.md): the upstream's 2xx answer reaches the workload
 * rewritten, through the proxy's own relay. An event stream is rewritten event by event as it
 * arrives; a JSON answer is read whole (up to 10 MiB, as the proxy reads it anyway), decoded
 * when gzip, deflate or br, and rewritten. The failure is recorded right before the first
 * rewritten byte; an answer the kind cannot apply to is relayed untouched and recorded as not
 * applied (`upstream_failed` when the upstream broke, else `not_applicable`).
 */
export class MisbehaveRelay extends BodyRewriteRelay {
  readonly #spec: MisbehaveSpec;
  readonly #context: FaultContext;
  /** The answer's content coding, lower case (`identity` when none). */
  #encoding = "identity";
  #rewrite: ProviderStreamRewrite | null = null;
  readonly #splitter = new SseSplitter();
  #applied = false;
  #upstreamFailed = false;
  /** Events sent to the workload (streams). */
  #sent = 0;

  constructor(spec: MisbehaveSpec, context: FaultContext, own: ResponseRelay) {
    super(own);
    this.#spec = spec;
    this.#context = context;
    context.beforeTerminal(() => {
      if (!this.#applied) context.notApplied(this.#upstreamFailed ? "upstream_failed" : "not_applicable");
    });
  }

  protected modeOf(status: number, headers: ResponseHeaders): RewriteMode {
    const encoding = String(headers["content-encoding"] ?? "identity")
      .trim()
      .toLowerCase();
    this.#encoding = encoding;
    if (status < 200 || status > 299) return "untouched";
    if (isEventStream(headers)) {
      if (encoding !== "identity") return "untouched";
      this.#rewrite = new REWRITES[this.#spec.provider].stream(this.#spec.kind);
      return "stream";
    }
    const decodable = encoding === "identity" || encoding in DECODERS;
    return this.#spec.kind !== "missing_finish" && decodable ? "whole" : "untouched";
  }

  protected streamData(chunk: Buffer): void {
    this.#splitter.push(chunk, (message) => this.#event(message));
  }

  protected streamEnd(): void {
    this.#splitter.end((message) => this.#event(message));
    const rewrite = this.#rewrite as ProviderStreamRewrite;
    this.#send(rewrite.end(), rewrite);
  }

  override error(error: Error): void {
    if (!this.#applied) this.#upstreamFailed = true;
    super.error(error);
  }

  #event(message: SseMessage): void {
    const rewrite = this.#rewrite as ProviderStreamRewrite;
    this.#send(rewrite.event(message), rewrite);
  }

  #send(outgoing: readonly Outgoing[], rewrite: ProviderStreamRewrite): void {
    if (rewrite.verdict === "applied" && !this.#applied) this.#fail(this.#sent);
    for (const piece of outgoing) {
      this.#sent += 1;
      this.own.data(typeof piece === "string" ? Buffer.from(piece, "utf8") : piece);
    }
  }

  #fail(relayedEvents: number | null): void {
    this.#applied = true;
    this.#context.fail("injected_misbehaviour", this.status, { upstreamStatus: this.status, relayedEvents });
  }

  /** The body rewritten, decoded and without `Content-Encoding` (the length is the relay's); untouched when the kind cannot apply. */
  protected rewriteWhole(body: Buffer, headers: ResponseHeaders): [ResponseHeaders, Buffer] {
    const rewritten = this.#rewriteJson(body);
    if (rewritten === null) return [headers, body];
    this.#fail(null);
    const { "content-encoding": _encoding, ...rest } = headers;
    return [rest, rewritten];
  }

  /** The rewritten body, or null when the kind cannot apply (not JSON, not the provider's shape). */
  #rewriteJson(body: Buffer): Buffer | null {
    const encoding = this.#encoding;
    try {
      const decoded = encoding === "identity" ? body : (DECODERS[encoding] as (body: Buffer) => Buffer)(body);
      const parsed = asObject(JSON.parse(decoded.toString("utf8")));
      const rewritten = parsed === null ? null : REWRITES[this.#spec.provider].json(parsed, this.#spec.kind);
      return rewritten === null ? null : Buffer.from(JSON.stringify(rewritten), "utf8");
    } catch {
      return null;
    }
  }
}
