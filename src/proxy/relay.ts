import type { ResponseRelay, SyntheticResponse, UpstreamControl } from "../faults/types.js";
import { BODY_LIMIT } from "../support/body-limit.js";
import { clientResponseHeaders, isEventStream } from "../support/http-headers.js";
import type { Exchange } from "./exchange.js";
import { sendSynthetic, UPSTREAM_TOO_LARGE, upstreamFailed } from "./responses.js";
import { settleUpstream } from "./settle.js";
import { StreamRelay } from "./stream-relay.js";

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The proxy's own relay: `text/event-stream` responses are streamed chunk by chunk, every
 * other response is buffered whole (up to 10 MiB). Either way the terminal event is recorded
 * before the response is completed towards the workload. `acting`: a fault acts on this
 * response (a held one), so a workload that closes its event stream has failed.
 */
export function defaultRelay(exchange: Exchange, acting: boolean): ResponseRelay {
  return new DefaultRelay(exchange, acting);
}

class DefaultRelay implements ResponseRelay {
  readonly #exchange: Exchange;
  readonly #acting: boolean;
  #active: ResponseRelay;

  constructor(exchange: Exchange, acting: boolean) {
    this.#exchange = exchange;
    this.#acting = acting;
    this.#active = new BufferedRelay(exchange);
  }

  start(status: number, headers: Headers, control: UpstreamControl): void {
    if (isEventStream(headers)) this.#active = new StreamRelay(this.#exchange, this.#acting);
    this.#active.start(status, headers, control);
  }

  data(chunk: Buffer): void {
    this.#active.data(chunk);
  }

  end(): void {
    this.#active.end();
  }

  error(error: Error): void {
    this.#active.error(error);
  }
}

class BufferedRelay implements ResponseRelay {
  readonly #exchange: Exchange;
  #chunks: Buffer[] = [];
  #size = 0;
  #status = 0;
  #headers: Headers = {};
  #control: UpstreamControl | null = null;
  #done = false;

  constructor(exchange: Exchange) {
    this.#exchange = exchange;
  }

  start(status: number, headers: Headers, control: UpstreamControl): void {
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
    const headers = clientResponseHeaders(this.#headers);
    const status = this.#status;
    if (request.method !== "HEAD" && status !== 204 && status !== 304) headers["content-length"] = this.#size;
    if (response.destroyed) {
      // The workload left before its answer: it got none, whatever the upstream said.
      operation.fail("client_disconnected", null);
      return;
    }
    try {
      response.writeHead(status, headers);
    } catch (error) {
      this.#done = false;
      this.error(error instanceof Error ? error : new Error("invalid upstream header"));
      return;
    }
    settleUpstream(operation, status, this.#headers);
    response.end(this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks, this.#size));
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
      operation.fail("client_disconnected", null);
      return;
    }
    operation.fail("proxy_error", 502);
    sendSynthetic(response, synthetic);
  }
}
