import type { StreamingRelay, UpstreamControl } from "../faults/types.js";
import { clientResponseHeaders, isEventStream } from "../support/http-headers.js";
import { SseEventCounter } from "../support/sse-events.js";
import { HTTP_COMPLETION } from "./completion-rule.js";
import { cutConnection, type Exchange } from "./exchange.js";
import { sendSynthetic, upstreamFailed } from "./responses.js";

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const NO_BYTES = Buffer.alloc(0);

/**
 * Relays a response to the workload as it arrives: status and headers at once, then each
 * chunk, with chunked transfer encoding. Used for every `text/event-stream` response and by
 * response-stream faults (see `StreamingRelay`). Schema 2 counts the events it relays
 * (`relayed_events`); a workload that closes an event stream nothing acts on is a success
 * with `closed_by_client` (docs/evidence.md), in schema 1 always `client_disconnected`.
 */
export class StreamRelay implements StreamingRelay {
  readonly #exchange: Exchange;
  #status = 0;
  #headers: Headers = {};
  #control: UpstreamControl | null = null;
  /** Schema-2 event streams only. */
  #events: SseEventCounter | null = null;
  #acting: boolean;
  /** Set once the relay answered on its own, ended, broke or was stopped. */
  #done = false;
  readonly #closeListeners: (() => void)[] = [];

  /** `acting`: a fault already acts on this response (see `takeOver`). */
  constructor(exchange: Exchange, acting = false) {
    this.#exchange = exchange;
    this.#acting = acting;
  }

  start(status: number, headers: Headers, control: UpstreamControl): void {
    const { operation, response } = this.#exchange;
    this.#status = status;
    this.#headers = headers;
    this.#control = control;
    if (response.closed) {
      // The workload left before anything was relayed: nothing will tell us again.
      this.#done = true;
      HTTP_COMPLETION.clientLeft(operation);
      control.abort();
      for (const listener of this.#closeListeners.splice(0)) listener();
      return;
    }
    try {
      response.writeHead(status, clientResponseHeaders(headers));
    } catch (error) {
      this.#done = true;
      control.abort();
      HTTP_COMPLETION.replaced(operation);
      sendSynthetic(response, upstreamFailed(error));
      return;
    }
    if (operation.countsStreamEvents && isEventStream(headers)) this.#events = new SseEventCounter();
    response.on("drain", () => control.resume());
    response.once("close", () => this.#closed());
    // Sends the head now, as latin1 (every byte as the upstream sent it): `flushHeaders` would
    // encode it as UTF-8, mangling any obs-text byte of a header value.
    response.write(NO_BYTES);
  }

  data(chunk: Buffer): void {
    if (this.#done) return;
    this.#events?.scan(chunk);
    if (!this.#exchange.response.write(chunk)) this.#control?.pause();
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    this.#events?.end();
    HTTP_COMPLETION.ended(this.#exchange.operation, this.#status, this.#headers, null, this.relayedEvents());
    this.#exchange.response.end();
  }

  error(): void {
    if (this.#done) return;
    this.#done = true;
    HTTP_COMPLETION.streamBroke(this.#exchange.operation, this.#status, this.relayedEvents());
    cutConnection(this.#exchange);
  }

  relayedEvents(): number | null {
    return this.#events === null ? null : this.#events.countIfEnded;
  }

  takeOver(): void {
    this.#acting = true;
  }

  finish(tail?: string): void {
    if (this.#done) return;
    this.#done = true;
    if (tail === undefined) this.#exchange.response.end();
    else this.#exchange.response.end(tail);
  }

  destroy(): void {
    if (this.#done) return;
    this.#done = true;
    const { response } = this.#exchange;
    // Ending the socket (not the response) flushes what was written, then closes without the
    // terminating chunk; destroying it at once could drop bytes still queued.
    if (response.socket === null) response.destroy();
    else response.socket.destroySoon();
  }

  onClose(listener: () => void): void {
    if (this.#exchange.response.closed) listener();
    else this.#closeListeners.push(listener);
  }

  #closed(): void {
    const { operation, response } = this.#exchange;
    if (!response.writableFinished) {
      if (!this.#done) {
        this.#done = true;
        HTTP_COMPLETION.streamLeft(
          operation,
          this.#status,
          this.#headers,
          this.relayedEvents(),
          this.#acting,
        );
      }
      this.#control?.abort();
    }
    for (const listener of this.#closeListeners.splice(0)) listener();
  }
}
