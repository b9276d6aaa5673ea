import type { ResponseHeaders, ResponseRelay, SyntheticResponse, UpstreamControl } from "../faults/types.js";
import { BODY_LIMIT } from "../support/body-limit.js";
import { clientResponseHeaders } from "../support/http-headers.js";
import type { CompletionRule } from "./completion-rule.js";
import type { Exchange } from "./exchange.js";
import { sendSynthetic, UPSTREAM_TOO_LARGE, upstreamFailed } from "./responses.js";

/**
 * Relays a response that is not an event stream: buffered whole (up to 10 MiB), then sent with
 * its length once the operation's terminal event is recorded by `rule` (evidence first). Over
 * the limit, or when the upstream fails before the answer is whole, the workload gets the
 * proxy's own 502 instead. The same relay serves every protocol: only the rule differs.
 */
export class BufferedRelay implements ResponseRelay {
  readonly #exchange: Exchange;
  readonly #rule: CompletionRule;
  #chunks: Buffer[] = [];
  #size = 0;
  #status = 0;
  #headers: ResponseHeaders = {};
  #control: UpstreamControl | null = null;
  #done = false;

  constructor(exchange: Exchange, rule: CompletionRule) {
    this.#exchange = exchange;
    this.#rule = rule;
  }

  start(status: number, headers: ResponseHeaders, control: UpstreamControl): void {
    this.#status = status;
    this.#headers = headers;
    this.#control = control;
  }

  data(chunk: Buffer): void {
    if (this.#done) return;
    this.#size += chunk.length;
    if (this.#size <= BODY_LIMIT) {
      this.#chunks.push(chunk);
      return;
    }
    this.#done = true;
    this.#chunks = [];
    this.#control?.abort();
    this.#answerSynthetic(UPSTREAM_TOO_LARGE);
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    const { operation, request, response } = this.#exchange;
    const chunks = this.#chunks;
    this.#chunks = [];
    if (response.destroyed) {
      this.#rule.clientLeft(operation);
      return;
    }
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#size);
    const status = this.#status;
    if (this.#rule.withheld(operation)) {
      this.#rule.ended(operation, status, this.#headers, body, null);
      response.writeHead(202, { "content-length": 0 });
      response.end();
      return;
    }
    const headers = clientResponseHeaders(this.#headers);
    if (request.method !== "HEAD" && status !== 204 && status !== 304) headers["content-length"] = this.#size;
    try {
      response.writeHead(status, headers);
    } catch (error) {
      this.#done = false;
      this.error(error instanceof Error ? error : new Error("invalid upstream header"));
      return;
    }
    this.#rule.ended(operation, status, this.#headers, body, null);
    response.end(body);
  }

  error(error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#chunks = [];
    this.#answerSynthetic(upstreamFailed(error));
  }

  /** The proxy's own 502 in place of the upstream's answer (recorded as such unless the workload left). */
  #answerSynthetic(synthetic: SyntheticResponse): void {
    const { operation, response } = this.#exchange;
    if (response.destroyed) {
      this.#rule.clientLeft(operation);
      return;
    }
    this.#rule.replaced(operation);
    sendSynthetic(response, synthetic);
  }
}
