import { connect, type Socket } from "node:net";
import { type BaseUrlParts, baseUrlParts } from "../base-url.js";
import { UpstreamFailure } from "../upstream-failure.js";
import { BodyFraming, FramingError } from "./body-framing.js";
import { headEnd, MAX_HEAD_BYTES, parseResponseHead, type ResponseHead } from "./heads.js";

/** Where the lane's requests go: an `http:` base URL, taken apart once. */
export interface UpstreamTarget extends BaseUrlParts {
  /** For `net.connect` (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
  /** The `Host` header value. */
  readonly hostHeader: string;
}

/** `null` for a base URL the lane does not serve (https: Node's HTTP stack keeps doing TLS). */
export function upstreamTarget(baseUrl: string): UpstreamTarget | null {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:") return null;
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port === "" ? 80 : Number(url.port),
    hostHeader: url.host,
    ...baseUrlParts(url),
  };
}

/** Where one response goes, piece by piece. Exactly one of `end` and `error` ends it. */
export interface ResponseSink {
  start(head: ResponseHead): void;
  data(piece: Buffer): void;
  end(): void;
  error(error: Error): void;
}

interface Exchange {
  readonly method: string;
  readonly sink: ResponseSink;
  /** The request until it is written (latin1 head, body); null once any byte went to a socket. */
  request: { readonly head: string; readonly body: Buffer | null } | null;
  /** Head bytes received so far (before the head is complete). */
  pending: Buffer | null;
  head: ResponseHead | null;
  framing: BodyFraming | null;
}

/** An upstream socket knows its link: one set of listener functions serves every socket. */
const LINK = Symbol("upstream link");
type LinkedSocket = Socket & { [LINK]?: UpstreamLink };

function onLinkData(this: LinkedSocket, chunk: Buffer): void {
  this[LINK]?.received(this, chunk);
}

function onLinkError(this: LinkedSocket, error: Error): void {
  this[LINK]?.errored(this, error);
}

function onLinkClose(this: LinkedSocket): void {
  this[LINK]?.closed(this);
}

/**
 * One keep-alive connection to the upstream, used by one workload connection for one exchange
 * at a time (the pairing that lets the lane skip a pool). It reconnects when the upstream
 * closed it or is about to (its advertised keep-alive timeout), and, like undici for the full
 * pipeline, never sends a request twice: a connection that closes before the answer is a 502.
 * Before a kept connection carries a request, one turn of the event loop passes so that a close
 * (or stray bytes) the upstream sent while it was idle is seen first; a connection found closed
 * then is replaced by a new one before the first byte is written (see docs/limits.md).
 */
export class UpstreamLink {
  readonly #target: UpstreamTarget;
  #socket: LinkedSocket | null = null;
  #idleSince = 0;
  #keepAliveMs: number | null = null;
  #exchange: Exchange | null = null;
  #error: Error | null = null;

  constructor(target: UpstreamTarget) {
    this.#target = target;
  }

  /** Sends one request (its head as latin1 text, its body); its response goes to `sink`. */
  send(method: string, head: string, body: Buffer | null, sink: ResponseSink): void {
    const socket = this.#socket;
    if (
      socket !== null &&
      // The upstream already shut its side (its close not yet seen), or its idle timeout is near.
      (socket.readableEnded ||
        !socket.writable ||
        (this.#keepAliveMs !== null && performance.now() - this.#idleSince > this.#keepAliveMs - 1000))
    ) {
      this.#drop();
    }
    const exchange: Exchange = {
      method,
      sink,
      request: { head, body },
      pending: null,
      head: null,
      framing: null,
    };
    this.#exchange = exchange;
    if (this.#socket === null) this.#write(exchange);
    else setImmediate(() => this.#write(exchange));
  }

  pause(): void {
    this.#socket?.pause();
  }

  resume(): void {
    this.#socket?.resume();
  }

  /** Ends the connection at once; an exchange in progress gets no further call. */
  destroy(): void {
    this.#exchange = null;
    this.#drop();
  }

  /** Writes the request on the kept connection if it is still open, else on a new one. */
  #write(exchange: Exchange): void {
    const request = exchange.request;
    if (this.#exchange !== exchange || request === null) return;
    exchange.request = null;
    const { head, body } = request;
    let socket = this.#socket as LinkedSocket | null;
    if (socket !== null && (socket.destroyed || socket.readableEnded || !socket.writable)) {
      this.#drop();
      socket = null;
    }
    if (socket === null) {
      this.#error = null;
      socket = connect({ host: this.#target.host, port: this.#target.port, noDelay: true }) as LinkedSocket;
      socket[LINK] = this;
      socket.on("data", onLinkData);
      socket.on("error", onLinkError);
      socket.on("close", onLinkClose);
      this.#socket = socket;
    }
    if (body === null) {
      socket.write(head, "latin1");
      return;
    }
    socket.cork();
    socket.write(head, "latin1");
    socket.write(body);
    socket.uncork();
  }

  #drop(): void {
    const socket = this.#socket;
    this.#socket = null;
    socket?.destroy();
  }

  /** @internal Bytes from one of this link's sockets. */
  received(socket: Socket, chunk: Buffer): void {
    const exchange = this.#exchange;
    if (socket !== this.#socket) return;
    if (exchange === null || exchange.request !== null) {
      // Bytes nobody asked for: the connection can no longer be trusted (a request not yet
      // written goes out on a new one).
      this.#drop();
      return;
    }
    try {
      this.#consume(exchange, chunk);
    } catch (error) {
      this.#fail(
        exchange,
        error instanceof FramingError ? new UpstreamFailure("UPSTREAM_INVALID_RESPONSE") : (error as Error),
      );
    }
  }

  #consume(exchange: Exchange, chunk: Buffer): void {
    let input = chunk;
    let at = 0;
    while (exchange.head === null) {
      input = exchange.pending === null ? input : Buffer.concat([exchange.pending, input.subarray(at)]);
      at = 0;
      exchange.pending = null;
      const end = headEnd(input, 0);
      if (end < 0) {
        if (input.length > MAX_HEAD_BYTES) throw new UpstreamFailure("UPSTREAM_INVALID_RESPONSE");
        exchange.pending = input;
        return;
      }
      const head = parseResponseHead(input.toString("latin1", 0, end));
      if (head === null || head.status === 101) throw new UpstreamFailure("UPSTREAM_INVALID_RESPONSE");
      at = end;
      if (head.status < 200) {
        // An interim response (100, 103): skipped, the final one follows.
        if (at === input.length) return;
        input = input.subarray(at);
        at = 0;
        continue;
      }
      exchange.head = head;
      this.#keepAliveMs = head.keepAliveMs;
      const payload = (piece: Buffer) => {
        if (this.#exchange === exchange) exchange.sink.data(piece);
      };
      exchange.framing =
        exchange.method === "HEAD" || head.status === 204 || head.status === 304
          ? BodyFraming.length(0, payload)
          : head.chunked
            ? BodyFraming.chunked(payload)
            : head.contentLength !== null
              ? BodyFraming.length(head.contentLength, payload)
              : BodyFraming.untilClose(payload);
      exchange.sink.start(head);
      if (this.#exchange !== exchange) return;
    }
    const framing = exchange.framing as BodyFraming;
    const used = framing.feed(input, at);
    if (this.#exchange !== exchange || !framing.done) return;
    this.#complete(exchange, used < input.length);
  }

  /** The response is whole: the connection waits for the next request, unless it must close. */
  #complete(exchange: Exchange, extraBytes: boolean): void {
    this.#exchange = null;
    if (extraBytes || exchange.head?.close === true || exchange.method === "HEAD") this.#drop();
    else this.#idleSince = performance.now();
    exchange.sink.end();
  }

  /** @internal */
  errored(socket: Socket, error: Error): void {
    if (this.#socket === socket) this.#error = error;
  }

  /** @internal One of this link's sockets closed. */
  closed(socket: Socket): void {
    if (socket !== this.#socket) return;
    this.#socket = null;
    const exchange = this.#exchange;
    // A request not yet written is sent on a new connection when its turn comes.
    if (exchange === null || exchange.request !== null) return;
    if (exchange.framing?.endsWithClose === true) {
      this.#complete(exchange, false);
      return;
    }
    this.#fail(exchange, this.#error ?? new UpstreamFailure("UPSTREAM_CLOSED"));
  }

  #fail(exchange: Exchange, error: Error): void {
    this.#exchange = null;
    this.#drop();
    exchange.sink.error(error);
  }
}
