import { connect, type Socket } from "node:net";
import { type BaseUrlParts, baseUrlParts, hostAddress } from "../base-url.js";
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
    host: hostAddress(url.hostname),
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

/** The upstream closed the connection before the response was complete. */
export class UpstreamClosedError extends Error {
  override readonly name = "UpstreamClosedError";
}

/** The upstream's answer is not an HTTP/1.x response the lane can frame. */
export class InvalidResponseError extends Error {
  override readonly name = "InvalidResponseError";
}

interface Exchange {
  readonly method: string;
  /** The request head (latin1) and body, until they are written. */
  requestHead: string;
  requestBody: Buffer | null;
  readonly sink: ResponseSink;
  /** Whether any byte of the request was handed to a socket: from then on it is never sent again. */
  written: boolean;
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

/** Whether a kept connection can still carry a request: the upstream has not closed it. */
function usable(socket: Socket): boolean {
  return !socket.destroyed && socket.writable && !socket.readableEnded;
}

/**
 * One keep-alive connection to the upstream, used by one workload connection for one exchange
 * at a time (the pairing that lets the lane skip a pool). A request is never sent twice: once
 * any byte of it went to a socket, a connection that closes before the answer fails the
 * exchange, whatever the method (the upstream may have acted on it). Before a kept connection
 * carries a request, the link lets one turn of the event loop pass so that a close (or stray
 * bytes) the upstream sent while it was idle is seen first; a connection found closed then is
 * replaced by a new one before the first byte is written.
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
    if (
      this.#socket !== null &&
      this.#keepAliveMs !== null &&
      performance.now() - this.#idleSince > this.#keepAliveMs - 1000
    ) {
      this.#drop();
    }
    const exchange: Exchange = {
      method,
      requestHead: head,
      requestBody: body,
      sink,
      written: false,
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
    if (this.#exchange !== exchange) return;
    let socket = this.#socket;
    if (socket !== null && !usable(socket)) {
      this.#drop();
      socket = null;
    }
    socket ??= this.#connect();
    const { requestHead, requestBody } = exchange;
    exchange.written = true;
    exchange.requestHead = "";
    exchange.requestBody = null;
    if (requestBody === null) {
      socket.write(requestHead, "latin1");
      return;
    }
    socket.cork();
    socket.write(requestHead, "latin1");
    socket.write(requestBody);
    socket.uncork();
  }

  #connect(): LinkedSocket {
    this.#error = null;
    const socket = connect({
      host: this.#target.host,
      port: this.#target.port,
      noDelay: true,
    }) as LinkedSocket;
    socket[LINK] = this;
    socket.on("data", onLinkData);
    socket.on("error", onLinkError);
    socket.on("close", onLinkClose);
    this.#socket = socket;
    return socket;
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
    if (exchange === null || !exchange.written) {
      // Bytes nobody asked for: the connection can no longer be trusted (a request waiting
      // to be written goes out on a new one).
      this.#drop();
      return;
    }
    try {
      this.#consume(exchange, chunk);
    } catch (error) {
      this.#fail(exchange, error instanceof FramingError ? new InvalidResponseError() : (error as Error));
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
        if (input.length > MAX_HEAD_BYTES) throw new InvalidResponseError();
        exchange.pending = input;
        return;
      }
      const head = parseResponseHead(input.toString("latin1", 0, end));
      if (head === null || head.status === 101) throw new InvalidResponseError();
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
    if (extraBytes || exchange.head?.close === true) this.#drop();
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
    // No exchange, or one not written yet (it will go out on a new connection).
    if (exchange === null || !exchange.written) return;
    if (exchange.framing?.endsWithClose === true) {
      this.#complete(exchange, false);
      return;
    }
    this.#fail(exchange, this.#error ?? new UpstreamClosedError());
  }

  #fail(exchange: Exchange, error: Error): void {
    this.#exchange = null;
    this.#drop();
    exchange.sink.error(error);
  }
}
