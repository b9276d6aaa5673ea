import type { ResponseHeaders, StreamingRelay, UpstreamControl } from "../faults/types.js";
import { clientResponseHeaders, isEventStream } from "../support/http-headers.js";
import { SseEventCounter } from "../support/sse-events.js";
import { type CompletionRule, HTTP_COMPLETION } from "./completion-rule.js";
import { cutConnection, type Exchange } from "./exchange.js";
import { sendSynthetic, upstreamFailed } from "./responses.js";

const NO_BYTES = Buffer.alloc(0);

/**
 * Reads the events of a relayed stream before their bytes go out, for a protocol whose answer
 * travels inside the stream (MCP: the event with the JSON-RPC response completes the operation).
 * It counts the events relayed in place of the relay's own count.
 */
export interface StreamEventObserver {
  /**
   * Reads `chunk` before it is relayed, recording what its events complete (evidence first);
   * false: the stream ends before `chunk` (the answer it carries is withheld).
   */
  read(chunk: Buffer): boolean;
  /** The events read so far. */
  readonly events: number;
}

export interface StreamRelayOptions {
  /** How the relayed stream completes its operation; `HTTP_COMPLETION` unless given. */
  readonly rule?: CompletionRule;
  /** A fault already acts on this response (see `takeOver`). */
  readonly acting?: boolean;
  /** Reads every chunk before it goes out (see `StreamEventObserver`). */
  readonly observer?: StreamEventObserver;
}

/**
 * Relays a response to the workload as it arrives: status and headers at once, then each
 * chunk, with chunked transfer encoding. Used for every `text/event-stream` response (HTTP and
 * MCP over HTTP, each with its completion rule) and by response-stream faults (see
 * `StreamingRelay`). Schema 2 counts the events it relays (`relayed_events`); a workload that
 * closes an event stream nothing acts on is a success with `closed_by_client` under the HTTP
 * rule (docs/evidence.md), in schema 1 always `client_disconnected`.
 */
export class StreamRelay implements StreamingRelay {
  readonly #exchange: Exchange;
  readonly #rule: CompletionRule;
  readonly #observer: StreamEventObserver | null;
  #status = 0;
  #headers: ResponseHeaders = {};
  #control: UpstreamControl | null = null;
  /** Schema-2 event streams only, when no observer counts them. */
  #events: SseEventCounter | null = null;
  #acting: boolean;
  /** Set once the relay answered on its own, ended, broke or was stopped. */
  #done = false;
  readonly #closeListeners: (() => void)[] = [];

  constructor(exchange: Exchange, options: StreamRelayOptions = {}) {
    this.#exchange = exchange;
    this.#rule = options.rule ?? HTTP_COMPLETION;
    this.#acting = options.acting ?? false;
    this.#observer = options.observer ?? null;
  }

  start(status: number, headers: ResponseHeaders, control: UpstreamControl): void {
    const { operation, response } = this.#exchange;
    this.#status = status;
    this.#headers = headers;
    this.#control = control;
    if (response.closed) {
      // The workload left before anything was relayed: nothing will tell us again.
      this.#done = true;
      this.#rule.clientLeft(operation);
      control.abort();
      for (const listener of this.#closeListeners.splice(0)) listener();
      return;
    }
    try {
      response.writeHead(status, clientResponseHeaders(headers));
    } catch (error) {
      this.#done = true;
      control.abort();
      this.#rule.replaced(operation);
      sendSynthetic(response, upstreamFailed(error));
      return;
    }
    if (this.#observer === null && operation.countsStreamEvents && isEventStream(headers))
      this.#events = new SseEventCounter();
    response.on("drain", () => control.resume());
    response.once("close", () => this.#closed());
    // Sends the head now, as latin1 (every byte as the upstream sent it): `flushHeaders` would
    // encode it as UTF-8, mangling any obs-text byte of a header value.
    response.write(NO_BYTES);
  }

  data(chunk: Buffer): void {
    if (this.#done) return;
    if (this.#observer !== null && !this.#observer.read(chunk)) {
      // The chunk carries an answer the workload must not get: the stream ends before it.
      this.#done = true;
      this.#control?.abort();
      this.#exchange.response.end();
      return;
    }
    this.#events?.scan(chunk);
    if (!this.#exchange.response.write(chunk)) this.#control?.pause();
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    this.#events?.end();
    this.#rule.ended(this.#exchange.operation, this.#status, this.#headers, null, this.relayedEvents());
    this.#exchange.response.end();
  }

  error(): void {
    if (this.#done) return;
    this.#done = true;
    this.#rule.streamBroke(this.#exchange.operation, this.#status, this.relayedEvents());
    cutConnection(this.#exchange);
  }

  relayedEvents(): number | null {
    if (this.#observer !== null) return this.#observer.events;
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
        this.#rule.streamLeft(operation, this.#status, this.#headers, this.relayedEvents(), this.#acting);
      }
      this.#control?.abort();
    }
    for (const listener of this.#closeListeners.splice(0)) listener();
  }
}
