import type { Socket } from "node:net";
import type { Operation } from "../../events/operation.js";
import { BODY_LIMIT } from "../../support/body-limit.js";
import { isEventStreamType } from "../../support/http-headers.js";
import { SseEventCounter } from "../../support/sse-events.js";
import { HTTP_COMPLETION } from "../completion-rule.js";
import { syntheticBytes, UPSTREAM_TOO_LARGE, upstreamFailed } from "../responses.js";
import { headerRecord, type ResponseHead } from "./heads.js";
import { chunkBytes, clientResponseHead, type Framing, LAST_CHUNK } from "./messages.js";
import type { ResponseSink, UpstreamLink } from "./upstream-link.js";

/** The workload's side of one lane exchange. */
export interface ClientSide {
  readonly socket: Socket;
  readonly link: UpstreamLink;
  /** The workload closed its connection. */
  readonly gone: boolean;
  /** The exchange is over; `reusable` false ends the workload's connection. */
  exchangeDone(reusable: boolean): void;
}

const NO_HEADERS: Readonly<Record<string, string | string[]>> = {};
/** The headers a terminal event reads: only a failure's (its `Retry-After`), so a success builds none. */
function headersOf(head: ResponseHead): Readonly<Record<string, string | string[]>> {
  return head.status >= 400 ? headerRecord(head) : NO_HEADERS;
}

/** Small responses go out as one buffer; larger ones as head and body in one `writev`. */
const COPY_LIMIT = 16 * 1024;

/**
 * One upstream response on its way to the workload, with the semantics of the full
 * pipeline's relays: `text/event-stream` streamed chunk by chunk (schema 2 counts its events,
 * a workload closing it is a success with `closed_by_client`), every other body buffered
 * whole up to 10 MiB and sent with its length. The terminal event is recorded before the
 * response's last byte is sent (the socket's write barrier writes it first).
 */
export class LaneResponse implements ResponseSink {
  readonly #client: ClientSide;
  readonly #operation: Operation;
  readonly #method: string;
  readonly #keepAlive: boolean;
  #head: ResponseHead | null = null;
  #streaming = false;
  #framing: Framing = "none";
  #events: SseEventCounter | null = null;
  #chunks: Buffer[] = [];
  #size = 0;
  #done = false;
  #draining = false;

  constructor(client: ClientSide, operation: Operation, method: string, keepAlive: boolean) {
    this.#client = client;
    this.#operation = operation;
    this.#method = method;
    this.#keepAlive = keepAlive;
  }

  /** An event stream is being relayed: its head went to the workload. */
  get relaying(): boolean {
    return this.#streaming && !this.#done;
  }

  start(head: ResponseHead): void {
    this.#head = head;
    if (!isEventStreamType(head.contentType)) return;
    this.#streaming = true;
    if (this.#client.gone) {
      // The workload left before anything was relayed: nothing will tell us again.
      HTTP_COMPLETION.clientLeft(this.#operation);
      this.#client.link.destroy();
      this.#finish(false);
      return;
    }
    const noBody = this.#method === "HEAD" || head.status === 204 || head.status === 304;
    this.#framing = noBody ? "none" : "chunked";
    if (this.#operation.countsStreamEvents) this.#events = new SseEventCounter();
    this.#client.socket.write(clientResponseHead(head, this.#framing, this.#keepAlive), "latin1");
  }

  data(piece: Buffer): void {
    if (this.#done) return;
    if (this.#streaming) {
      this.#events?.scan(piece);
      if (piece.length === 0 || this.#framing !== "chunked") return;
      if (!this.#writeAll(chunkBytes(piece)) && !this.#draining) {
        this.#draining = true;
        this.#client.link.pause();
        this.#client.socket.once("drain", () => {
          this.#draining = false;
          this.#client.link.resume();
        });
      }
      return;
    }
    this.#size += piece.length;
    if (this.#size <= BODY_LIMIT) {
      this.#chunks.push(piece);
      return;
    }
    this.#chunks = [];
    this.#client.link.destroy();
    this.#sendSynthetic(UPSTREAM_TOO_LARGE);
  }

  end(): void {
    if (this.#done) return;
    const head = this.#head as ResponseHead;
    if (this.#streaming) {
      this.#events?.end();
      HTTP_COMPLETION.ended(this.#operation, head.status, headersOf(head), null, this.#relayedEvents());
      if (this.#framing === "chunked") this.#client.socket.write(LAST_CHUNK);
      this.#finish(this.#keepAlive);
      return;
    }
    if (this.#client.gone) {
      HTTP_COMPLETION.clientLeft(this.#operation);
      this.#finish(false);
      return;
    }
    HTTP_COMPLETION.ended(this.#operation, head.status, headersOf(head), null, null);
    const noBody = this.#method === "HEAD" || head.status === 204 || head.status === 304;
    const text = clientResponseHead(head, noBody ? "none" : { length: this.#size }, this.#keepAlive);
    const chunks = this.#chunks;
    this.#chunks = [];
    if (noBody || this.#size === 0) {
      this.#client.socket.write(text, "latin1");
    } else if (this.#size <= COPY_LIMIT) {
      const headLength = Buffer.byteLength(text, "latin1");
      const bytes = Buffer.allocUnsafe(headLength + this.#size);
      bytes.write(text, 0, "latin1");
      let at = headLength;
      for (const chunk of chunks) at += chunk.copy(bytes, at);
      this.#client.socket.write(bytes);
    } else {
      this.#writeAll([Buffer.from(text, "latin1"), ...chunks]);
    }
    this.#finish(this.#keepAlive);
  }

  error(error: Error): void {
    if (this.#done) return;
    this.#chunks = [];
    if (this.#streaming) {
      HTTP_COMPLETION.streamBroke(
        this.#operation,
        (this.#head as ResponseHead).status,
        this.#relayedEvents(),
      );
      this.#client.socket.destroy();
      this.#finish(false);
      return;
    }
    this.#sendSynthetic(upstreamFailed(error));
  }

  /**
   * The workload closed its connection. Before any byte of the answer reached it, that is a
   * `client_disconnected` failure whatever the upstream answers (its answer is still awaited,
   * then dropped); an event stream it was reading ends here.
   */
  clientClosed(): void {
    if (this.#done) return;
    if (!this.#streaming) {
      HTTP_COMPLETION.clientLeft(this.#operation);
      return;
    }
    const head = this.#head as ResponseHead;
    HTTP_COMPLETION.streamLeft(this.#operation, head.status, headersOf(head), this.#relayedEvents(), false);
    this.#client.link.destroy();
    this.#finish(false);
  }

  #relayedEvents(): number | null {
    return this.#events === null ? null : this.#events.countIfEnded;
  }

  /** The proxy's own 502 in place of the upstream's answer (recorded as such unless the workload left). */
  #sendSynthetic(synthetic: Parameters<typeof syntheticBytes>[0]): void {
    if (this.#client.gone) {
      HTTP_COMPLETION.clientLeft(this.#operation);
      this.#finish(false);
      return;
    }
    HTTP_COMPLETION.replaced(this.#operation);
    this.#client.socket.write(syntheticBytes(synthetic, this.#keepAlive, this.#method === "HEAD"));
    this.#finish(this.#keepAlive);
  }

  #writeAll(pieces: readonly Buffer[]): boolean {
    const { socket } = this.#client;
    socket.cork();
    let ok = true;
    for (const piece of pieces) ok = socket.write(piece);
    socket.uncork();
    return ok;
  }

  /** Always after the exchange's last event and bytes: ending the connection comes last. */
  #finish(reusable: boolean): void {
    this.#done = true;
    this.#client.exchangeDone(reusable);
  }
}
