/**
 * Raw sockets for the path-parity test: an upstream that reads requests byte-exactly and
 * answers each with the framing its case names, and a workload client that writes exact
 * request bytes and keeps every byte it receives, split into responses.
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import type { AnswerSpec } from "./parity-cases.js";
import { answerIndex } from "./parity-cases.js";

/** One request as the upstream read it. */
export interface UpstreamRequest {
  readonly method: string;
  readonly target: string;
  /** Lower-case name and value, in order. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

/** A one-shot signal. */
export class Signal {
  readonly promise: Promise<void>;
  #resolve: () => void = () => {};
  #fired = false;

  constructor() {
    this.promise = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  get fired(): boolean {
    return this.#fired;
  }

  fire(): void {
    this.#fired = true;
    this.#resolve();
  }
}

export interface RawUpstream {
  readonly url: string;
  readonly requests: UpstreamRequest[];
  /** Fired when the request with index i arrived. */
  received(index: number): Signal;
  /** Lets held answers go on. */
  readonly release: Signal;
  close(): Promise<void>;
}

/** Index just after a complete request or response head, or -1. */
function headEnd(bytes: Buffer): number {
  const at = bytes.indexOf("\r\n\r\n");
  return at < 0 ? -1 : at + 4;
}

function headerLines(head: string): [string, string][] {
  return head
    .split("\r\n")
    .slice(1)
    .filter((line) => line !== "")
    .map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    });
}

/** A request body's end in `bytes` from `start` (length or chunked), or -1 while incomplete; with the payload. */
function requestBodyEnd(
  headers: readonly (readonly [string, string])[],
  bytes: Buffer,
  start: number,
): { end: number; body: Buffer } | null {
  const chunked = headers.some(([name, value]) => name === "transfer-encoding" && /chunked/i.test(value));
  if (!chunked) {
    const length = Number(headers.find(([name]) => name === "content-length")?.[1] ?? 0);
    return bytes.length - start < length
      ? null
      : { end: start + length, body: bytes.subarray(start, start + length) };
  }
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(bytes.toString("latin1", at, lineEnd), 16);
    if (size === 0) {
      const end = bytes.indexOf("\r\n\r\n", lineEnd);
      return end < 0 ? null : { end: end + 4, body: Buffer.concat(parts) };
    }
    if (bytes.length < lineEnd + 2 + size + 2) return null;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

const REASONS: Readonly<Record<number, string>> = { 200: "OK", 204: "No Content", 304: "Not Modified" };

/** Writes `answer` to `method`'s request; resolves true when the connection stays usable. */
async function play(socket: Socket, method: string, answer: AnswerSpec, release: Signal): Promise<boolean> {
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
  const noBody = method === "HEAD";
  switch (answer.kind) {
    case "drop":
      if (answer.reset) socket.resetAndDestroy();
      else socket.end();
      return false;
    case "invalid":
      socket.end(answer.bytes, "latin1");
      return false;
    case "no-body":
      socket.write(`HTTP/1.1 ${answer.status} ${REASONS[answer.status]}\r\nX-Upstream: n\r\n\r\n`);
      return true;
    case "cut": {
      const framing = answer.chunked ? "Transfer-Encoding: chunked" : "Content-Length: 20";
      const first = answer.chunked ? "5\r\nabcde\r\n" : "abcde";
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: ${answer.contentType}\r\n${framing}\r\n\r\n${noBody ? "" : first}`,
      );
      await tick();
      if (noBody) return true;
      if (answer.reset) socket.resetAndDestroy();
      else socket.end();
      return false;
    }
    default: {
      if (answer.hold === "before-head") await release.promise;
      if (socket.destroyed) return false;
      if (answer.interim) socket.write("HTTP/1.1 103 Early Hints\r\nLink: </hint>\r\n\r\n");
      const body = answer.pieces.map((piece) => Buffer.from(piece, "utf8"));
      const total = body.reduce((sum, piece) => sum + piece.length, 0);
      let head = `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? "Status"}\r\nContent-Type: ${answer.contentType}\r\n`;
      for (const [name, value] of answer.extraHeaders) head += `${name}: ${value}\r\n`;
      if (answer.kind === "length") head += `Content-Length: ${total}\r\n`;
      if (answer.kind === "chunked") head += "Transfer-Encoding: chunked\r\n";
      socket.write(`${head}\r\n`, "latin1");
      if (noBody) {
        if (answer.kind !== "close-delimited") return true;
        socket.end();
        return false;
      }
      for (const [index, piece] of body.entries()) {
        await tick();
        if (index === 1 && answer.hold === "after-first-piece") await release.promise;
        if (socket.destroyed) return false;
        socket.write(
          answer.kind === "chunked"
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)};e=1\r\n`), piece, Buffer.from("\r\n")])
            : piece,
        );
      }
      await tick();
      if (answer.kind === "chunked") socket.write("0\r\nX-Tail: 1\r\n\r\n");
      if (answer.kind !== "close-delimited") return true;
      socket.end();
      return false;
    }
  }
}

/** A raw upstream answering request i with `answers[i]` (200 with a length for anything else). */
export async function startRawUpstream(answers: readonly AnswerSpec[]): Promise<RawUpstream> {
  const requests: UpstreamRequest[] = [];
  const signals = new Map<number, Signal>();
  const received = (index: number) => {
    let signal = signals.get(index);
    if (signal === undefined) {
      signal = new Signal();
      signals.set(index, signal);
    }
    return signal;
  };
  const release = new Signal();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffered = Buffer.alloc(0);
    let busy = false;
    const next = async (): Promise<void> => {
      if (busy) return;
      const end = headEnd(buffered);
      if (end < 0) return;
      const head = buffered.toString("latin1", 0, end - 4);
      const headers = headerLines(head);
      const body = requestBodyEnd(headers, buffered, end);
      if (body === null) return;
      buffered = buffered.subarray(body.end);
      const [method = "", target = ""] = head.split(" ");
      requests.push({ method, target, headers, body: body.body.toString("latin1") });
      const index = answerIndex(target);
      const answer: AnswerSpec = (index === null ? undefined : answers[index]) ?? {
        kind: "length",
        status: 200,
        contentType: "application/json",
        pieces: ['{"ok":true}'],
        extraHeaders: [],
        hold: "none",
        interim: false,
      };
      if (index !== null) received(index).fire();
      busy = true;
      const usable = await play(socket, method, answer, release);
      busy = false;
      if (usable) await next();
    };
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      void next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    received,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        release.fire();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A URL nothing listens on: a privileged port below the ephemeral range. A port found free and
 * closed again could be handed to the proxy under test itself when it listens on port 0, which
 * would then forward every request to itself.
 */
export const DEAD_URL = "http://127.0.0.1:9";

/** One response as the workload received it. */
export interface ReceivedResponse {
  /** The status line. */
  readonly status: string;
  /** Lower-case name and value, in order. */
  readonly headers: readonly (readonly [string, string])[];
  /** `length`, `chunked` (with whether it ended), `none` or `close`. */
  readonly framing: string;
  /** The payload (chunked framing removed). */
  readonly body: string;
  readonly complete: boolean;
}

/**
 * Splits what a workload received into responses; `methods` are its requests' methods, in
 * order; `ended`: the connection ended (a response framed by the close is then complete).
 */
export function splitResponses(
  bytes: Buffer,
  methods: readonly string[],
  ended: boolean,
): ReceivedResponse[] {
  const found: ReceivedResponse[] = [];
  /** Final responses so far (an interim one answers no request of its own). */
  let finals = 0;
  let rest = bytes;
  while (rest.length > 0) {
    const end = headEnd(rest);
    if (end < 0) {
      found.push({
        status: rest.toString("latin1"),
        headers: [],
        framing: "partial head",
        body: "",
        complete: false,
      });
      break;
    }
    const head = rest.toString("latin1", 0, end - 4);
    const status = head.slice(0, head.indexOf("\r\n") < 0 ? head.length : head.indexOf("\r\n"));
    const headers = headerLines(head);
    const code = Number(status.slice(9, 12));
    const method = methods[finals] ?? "GET";
    if (code >= 200) finals += 1;
    const length = headers.find(([name]) => name === "content-length")?.[1];
    const chunked = headers.some(([name, value]) => name === "transfer-encoding" && /chunked/i.test(value));
    const after = rest.subarray(end);
    if (method === "HEAD" || code === 204 || code === 304 || code < 200) {
      found.push({ status, headers, framing: "none", body: "", complete: true });
      rest = after;
    } else if (chunked) {
      const { body, used, ended } = dechunk(after);
      found.push({ status, headers, framing: ended ? "chunked" : "chunked, cut", body, complete: ended });
      rest = after.subarray(used);
      if (!ended) break;
    } else if (length !== undefined) {
      const n = Number(length);
      const complete = after.length >= n;
      found.push({
        status,
        headers,
        framing: "length",
        body: after.toString("utf8", 0, Math.min(n, after.length)),
        complete,
      });
      rest = after.subarray(Math.min(n, after.length));
      if (!complete) break;
    } else {
      found.push({ status, headers, framing: "close", body: after.toString("utf8"), complete: ended });
      break;
    }
  }
  return found;
}

function dechunk(bytes: Buffer): { body: string; used: number; ended: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    if (lineEnd < 0) return { body: Buffer.concat(parts).toString("utf8"), used: bytes.length, ended: false };
    const size = Number.parseInt(bytes.toString("latin1", at, lineEnd), 16);
    if (size === 0) {
      const end = bytes.indexOf("\r\n\r\n", lineEnd);
      if (end < 0) return { body: Buffer.concat(parts).toString("utf8"), used: bytes.length, ended: false };
      return { body: Buffer.concat(parts).toString("utf8"), used: end + 4, ended: true };
    }
    const take = Math.min(size, bytes.length - lineEnd - 2);
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + take));
    if (take < size || bytes.length < lineEnd + 2 + size + 2) {
      return { body: Buffer.concat(parts).toString("utf8"), used: bytes.length, ended: false };
    }
    at = lineEnd + 2 + size + 2;
  }
}

/** The workload's side: a raw connection that keeps every byte it receives. */
export class RawClient {
  readonly #socket: Socket;
  #bytes = Buffer.alloc(0);
  /** Resolves once the proxy ended the connection (or it closed). */
  readonly closed: Promise<void>;
  readonly connected: Promise<void>;
  #waiters: (() => void)[] = [];
  #isClosed = false;

  constructor(proxyUrl: string) {
    const { hostname, port } = new URL(proxyUrl);
    this.#socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    this.connected = new Promise((resolve) => this.#socket.once("connect", () => resolve()));
    this.#socket.on("error", () => {});
    this.#socket.on("data", (chunk: Buffer) => {
      this.#bytes = Buffer.concat([this.#bytes, chunk]);
      this.#wake();
    });
    this.closed = new Promise((resolve) => {
      const closed = () => {
        this.#isClosed = true;
        this.#wake();
        resolve();
      };
      this.#socket.once("end", closed);
      this.#socket.once("close", closed);
    });
  }

  get bytes(): Buffer {
    return this.#bytes;
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  write(bytes: Buffer): void {
    if (!this.#socket.destroyed && this.#socket.writable) this.#socket.write(bytes);
  }

  /** Shuts the write side (a half-close). */
  end(): void {
    if (!this.#socket.destroyed) this.#socket.end();
  }

  /** Leaves at once with a reset. */
  reset(): void {
    if (!this.#socket.destroyed) this.#socket.resetAndDestroy();
  }

  destroy(): void {
    this.#socket.destroy();
  }

  /** Resolves once `condition` holds on the received bytes or the connection closed. */
  async until(condition: (bytes: Buffer) => boolean): Promise<void> {
    while (!condition(this.#bytes) && !this.#isClosed) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}
