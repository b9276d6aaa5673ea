import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { ArmedFault } from "../../faults/registry.js";
import { selectOperation } from "../../faults/selection.js";
import { BODY_LIMIT } from "../../support/body-limit.js";
import { bodyHash, decodePath } from "../fingerprint.js";
import { httpOperationIdentity } from "../identity.js";
import { askWhetherListening } from "../listening-probe.js";
import type { PipelineParts } from "../pipeline.js";
import { type RequestTarget, splitTarget } from "../request-target.js";
import { FORWARDED_METHODS, MALFORMED_REQUEST, syntheticBytes } from "../responses.js";
import { headEnd, MAX_HEAD_BYTES, parseRequestHead, type RequestHead } from "./heads.js";
import { upstreamRequestHead } from "./messages.js";
import { type ClientSide, LaneResponse } from "./response.js";
import { UpstreamLink, type UpstreamTarget } from "./upstream-link.js";

/** The full pipeline's parts, but for the upstream: the lane connects to it itself. */
export interface LaneParts extends Omit<PipelineParts, "upstream"> {
  readonly upstream: UpstreamTarget;
  /**
   * Gives the connection to the full pipeline with the bytes not yet consumed (`ended`: the
   * workload already shut its side, after those bytes).
   */
  readonly handOff: (socket: Socket, unread: Buffer, ended: boolean) => void;
  /** The connection has nothing left to do: its socket closed and no exchange waits. */
  readonly retired: (connection: LaneConnection) => void;
}

/** A request whose body is still arriving. */
interface PartialRequest {
  readonly head: RequestHead;
  readonly target: RequestTarget;
  readonly receivedAt: number;
  readonly parts: Buffer[];
  size: number;
}

/** Bytes a workload may send ahead (pipelining) before reading from it pauses. */
const MAX_AHEAD = 1024 * 1024;
const EMPTY = Buffer.alloc(0);
const NO_FAULTS: readonly ArmedFault[] = [];
const itself = (fault: ArmedFault): ArmedFault => fault;

/**
 * One workload connection in the fast lane. Requests are taken one at a time: a request no
 * fault targets is recorded exactly as the full pipeline records it (observed, retry link,
 * terminal event) and relayed over this connection's own upstream connection. The first
 * request the lane does not take itself (a fault's target, a method or framing it leaves to
 * Node's HTTP server) hands the whole connection, unread bytes included, to the full pipeline.
 */
export class LaneConnection implements ClientSide {
  readonly socket: Socket;
  readonly #parts: LaneParts;
  #link: UpstreamLink | null = null;
  /** Bytes received and not yet consumed. */
  #pending: Buffer = EMPTY;
  #partial: PartialRequest | null = null;
  #response: LaneResponse | null = null;
  /** The workload shut its side (a half-close): what it sent is answered, then the connection ends. */
  #ended = false;
  /** The lane ended the connection: nothing more is read. */
  #closing = false;
  #gone = false;
  #paused = false;
  readonly #onData = (chunk: Buffer) => this.#receive(chunk);
  readonly #onEnd = () => this.#clientEnded();
  readonly #onClose = () => this.#clientClosed();

  constructor(socket: Socket, parts: LaneParts) {
    this.socket = socket;
    this.#parts = parts;
    socket.on("data", this.#onData);
    socket.on("end", this.#onEnd);
    socket.on("close", this.#onClose);
  }

  get link(): UpstreamLink {
    this.#link ??= new UpstreamLink(this.#parts.upstream);
    return this.#link;
  }

  get gone(): boolean {
    return this.#gone;
  }

  /** Ends the connection and its upstream connection at once (proxy shutdown). */
  destroy(): void {
    this.#link?.destroy();
    this.socket.destroy();
  }

  exchangeDone(reusable: boolean): void {
    this.#response = null;
    if (this.#gone) {
      this.#link?.destroy();
      this.#parts.retired(this);
      return;
    }
    if (!reusable) {
      this.#end();
      return;
    }
    if (this.#paused) {
      this.#paused = false;
      this.socket.resume();
    }
    this.#next();
  }

  #receive(chunk: Buffer): void {
    if (this.#closing) return;
    const partial = this.#partial;
    if (partial !== null) {
      this.#collect(partial, chunk);
      return;
    }
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    if (this.#response === null) this.#next();
    else if (this.#pending.length > MAX_AHEAD && !this.#paused) {
      this.#paused = true;
      this.socket.pause();
    }
  }

  /** Takes the next complete request head from the pending bytes, if there is one. */
  #next(): void {
    if (this.#closing) return;
    const pending = this.#pending;
    if (pending.length === 0) {
      if (this.#ended) this.#end();
      return;
    }
    const end = headEnd(pending, 0);
    if (end < 0) {
      if (pending.length > MAX_HEAD_BYTES) this.#handOff();
      else if (this.#ended) this.#refuse();
      return;
    }
    const head = parseRequestHead(pending.toString("latin1", 0, end), FORWARDED_METHODS);
    if (head === null || head.contentLength > BODY_LIMIT) {
      this.#handOff();
      return;
    }
    const target = splitTarget(head.target);
    if (this.#targeted(head, target)) {
      this.#handOff();
      return;
    }
    const receivedAt = performance.now();
    const available = pending.length - end;
    if (available >= head.contentLength) {
      const body = head.contentLength === 0 ? null : pending.subarray(end, end + head.contentLength);
      this.#pending = available === head.contentLength ? EMPTY : pending.subarray(end + head.contentLength);
      this.#forward(head, target, body, receivedAt);
      return;
    }
    this.#pending = EMPTY;
    // The workload already shut its side: this body can never be whole.
    if (this.#ended) {
      this.#refuse();
      return;
    }
    const partial: PartialRequest = { head, target, receivedAt, parts: [], size: 0 };
    this.#partial = partial;
    if (available > 0) this.#collect(partial, pending.subarray(end));
  }

  #collect(partial: PartialRequest, chunk: Buffer): void {
    const needed = partial.head.contentLength - partial.size;
    if (chunk.length < needed) {
      partial.parts.push(chunk);
      partial.size += chunk.length;
      return;
    }
    partial.parts.push(chunk.subarray(0, needed));
    this.#partial = null;
    this.#pending = chunk.length === needed ? EMPTY : chunk.subarray(needed);
    const body = Buffer.concat(partial.parts, partial.head.contentLength);
    this.#forward(partial.head, partial.target, body, partial.receivedAt);
  }

  /** Whether any fault's target names this request: then the full pipeline takes it. */
  #targeted(head: RequestHead, target: RequestTarget): boolean {
    const faults = this.#parts.faults;
    if (faults.length === 0) return false;
    const identity = { method: head.method, path: decodePath(target.rawPath), protocol: "http" as const };
    return faults.some((fault) => fault.matches(identity));
  }

  /** Opens the operation (observed, retry link: the pipeline's selection with nothing selected) and sends it upstream. */
  #forward(head: RequestHead, target: RequestTarget, body: Buffer | null, receivedAt: number): void {
    const { ledger, holds, identity, upstream } = this.#parts;
    const canaries = this.#parts.canaries ?? null;
    if (ledger.sealed) {
      this.socket.destroy();
      return;
    }
    const requestBody = { bytes: body, hash: bodyHash(body ?? EMPTY), tooLarge: false };
    const operation = ledger.begin(
      httpOperationIdentity(identity, head.method, target, requestBody, head.idempotencyKey),
      receivedAt,
    );
    // The pipeline's selection section, with no candidate: no fault targets this request.
    selectOperation(operation, NO_FAULTS, itself, holds);
    canaries?.scanRequest(ledger.dependency, operation.id, head.target, body);
    const response = new LaneResponse(this, operation, head.method, !head.close);
    this.#response = response;
    this.link.send(head.method, upstreamRequestHead(upstream, head, body), body, response);
  }

  #handOff(): void {
    const { socket } = this;
    socket.off("data", this.#onData);
    socket.off("end", this.#onEnd);
    socket.off("close", this.#onClose);
    this.#link?.destroy();
    // Paused until the pipeline's server listens to it (it may still be loading).
    socket.pause();
    const unread = this.#pending;
    this.#pending = EMPTY;
    this.#parts.retired(this);
    this.#parts.handOff(socket, unread, this.#ended);
  }

  /**
   * The workload shut its side (a half-close, HTTP/1.0 style): every complete request it sent
   * is still answered, then the connection ends; a request it cut short is answered 400 (and
   * is never an operation), as the full pipeline answers it. A request still awaiting its
   * answer gets an interim `100 Continue` first: a workload that is gone answers it with a
   * reset, and leaves as any workload that closes its connection. An event stream being
   * relayed ends here: the workload stopped reading it.
   */
  #clientEnded(): void {
    this.#ended = true;
    const response = this.#response;
    if (this.#partial !== null) this.#refuse();
    else if (response === null) this.#next();
    else if (!response.relaying) askWhetherListening(this.socket);
    else {
      this.socket.end();
      this.#clientClosed();
    }
  }

  /** Answers a request the lane cannot read with 400 and ends the connection. */
  #refuse(): void {
    this.#partial = null;
    this.socket.write(syntheticBytes(MALFORMED_REQUEST, false));
    this.#end();
  }

  #end(): void {
    this.#closing = true;
    this.#pending = EMPTY;
    this.socket.end();
  }

  #clientClosed(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#partial = null;
    const response = this.#response;
    if (response !== null) {
      response.clientClosed();
      return;
    }
    this.#link?.destroy();
    this.#parts.retired(this);
  }
}
