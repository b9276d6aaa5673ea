import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";
import { compileTargetV2 } from "../../scenario/target.js";
import type { McpTarget } from "../../scenario/types-v2.js";
import { paramsHash, targetName } from "../identity.js";
import { cancelledIdKey, classifyMessage } from "../json-rpc.js";
import { LineSplitter, lineText, STDIO_LINE_LIMIT } from "../lines.js";
import { type Decision, send } from "../stdio/channel.js";
import { OrderedWriter, type QueuedLine } from "./ordered-writer.js";
import { RefusedLine, type RefusedMessage, refusalAnswer, refusalReason } from "./refused-line.js";

const BACKSLASH = 0x5c;

interface ForwardedRequest {
  readonly idKey: string;
  /** `mcp_latency`: the answer leaves the ordered queue and goes out when the run says so. */
  delayed: boolean;
}

export interface RelayEnds {
  readonly agentIn: Readable;
  readonly agentOut: Writable;
  readonly serverIn: Writable;
  readonly serverOut: Readable;
  readonly channel: Socket;
  /** The targets of the dependency's faults: only requests they match wait for the run. */
  readonly targets: readonly McpTarget[];
}

/**
 * The shim's two line relays. Agent → server: each request waits for the run's decision (the
 * lines behind it wait too); everything else passes. Server → agent: the answer to a recorded
 * request waits until the run has recorded its evidence; everything else passes. Malformed
 * lines pass unchanged and are counted. A line over the size limit is never held nor relayed:
 * a request or a recorded request's answer is refused with an error answer to the agent and
 * recorded as a `proxy_error`. Payloads never leave the shim: the run gets the method, target
 * name, params hash and id only.
 */
export class ShimRelay {
  /** Called once the agent's input ended and every line of it reached the server. */
  onAgentEnd: () => void = () => {};
  /** Called for a `disconnect` decision. */
  onDisconnect: () => void = () => {};
  /** Called with one sentence when a line is refused for its size. */
  onRefused: (problem: string) => void = () => {};
  readonly #ends: RelayEnds;
  readonly #toServer: OrderedWriter;
  readonly #toAgent: OrderedWriter;
  readonly #requests = new Map<number, ForwardedRequest>();
  readonly #keyById = new Map<string, number>();
  readonly #awaitingDecision = new Map<number, QueuedLine>();
  readonly #awaitingAck = new Map<number, QueuedLine>();
  readonly #held = new Map<number, Buffer>();
  readonly #targeted: (facts: { method: string; path: string }) => boolean;
  #nextKey = 0;
  #agentOutClosed = false;

  constructor(ends: RelayEnds) {
    this.#ends = ends;
    const matchers = ends.targets.map((target) => compileTargetV2(target));
    this.#targeted = (facts) => matchers.some((matches) => matches({ protocol: "mcp", ...facts }));
    this.#toServer = new OrderedWriter((line) => writeWithBackpressure(ends.serverIn, line, ends.agentIn));
    this.#toAgent = new OrderedWriter((line) => {
      if (!this.#agentOutClosed) writeWithBackpressure(ends.agentOut, line, ends.serverOut);
    });
  }

  start(): void {
    const { agentIn, serverOut } = this.#ends;
    const fromAgent = new LineSplitter({
      limit: STDIO_LINE_LIMIT,
      oversized: () => new RefusedLine((refused) => this.#refusedFromAgent(refused)),
    });
    agentIn.on("data", (chunk: Buffer) => fromAgent.push(chunk, (line) => this.#fromAgent(line)));
    agentIn.once("end", () => {
      fromAgent.end((line) => this.#fromAgent(line));
      // The end's turn comes once every earlier line has been written (or dropped).
      this.#toServer.push(null, true, () => this.onAgentEnd());
    });
    agentIn.on("error", () => {});
    const fromServer = new LineSplitter({
      limit: STDIO_LINE_LIMIT,
      oversized: () => new RefusedLine((refused) => this.#refusedFromServer(refused)),
    });
    serverOut.on("data", (chunk: Buffer) => fromServer.push(chunk, (line) => this.#fromServer(line)));
    serverOut.once("end", () => fromServer.end((line) => this.#fromServer(line)));
    serverOut.on("error", () => {});
  }

  /** A message from the run about one request. */
  decided(key: number, decision: Decision): void {
    const entry = this.#awaitingDecision.get(key);
    if (entry === undefined) return;
    this.#awaitingDecision.delete(key);
    if (decision.action === "forward") {
      const request = this.#requests.get(key);
      if (request !== undefined) request.delayed = decision.delayed;
      this.#toServer.release(entry);
      return;
    }
    this.#toServer.release(entry, null);
    this.#forget(key);
    if (decision.action === "answer") this.#toAgent.push(Buffer.from(`${decision.message}\n`, "utf8"), true);
    else if (decision.action === "disconnect") this.onDisconnect();
  }

  /** The run recorded the evidence of request `key`'s answer: hand it to the agent. */
  acknowledged(key: number): void {
    const entry = this.#awaitingAck.get(key);
    if (entry !== undefined) {
      this.#awaitingAck.delete(key);
      this.#toAgent.release(entry);
      return;
    }
    const held = this.#held.get(key);
    if (held === undefined) return;
    this.#held.delete(key);
    this.#toAgent.push(held, true);
  }

  /** No line goes to the agent any more (a disconnect, or the end of the session). */
  closeAgentOutput(): void {
    if (this.#agentOutClosed) return;
    this.#agentOutClosed = true;
    this.#ends.agentOut.end();
  }

  #fromAgent(line: Buffer): void {
    const message = classifyMessage(lineText(line));
    const { channel } = this.#ends;
    if (message.kind === "malformed") send(channel, { type: "malformed" });
    if (message.kind !== "request") {
      const cancelled = cancelledIdKey(message);
      const key = cancelled === null ? undefined : this.#keyById.get(cancelled);
      if (key !== undefined) send(channel, { type: "cancelled", key });
      this.#toServer.push(line, true);
      return;
    }
    const key = ++this.#nextKey;
    this.#requests.set(key, { idKey: message.idKey, delayed: false });
    this.#keyById.set(message.idKey, key);
    const { method, params } = message;
    const path = targetName(method, params);
    const decide = this.#targeted({ method, path });
    // A request no fault targets is on its way before its params are hashed for the evidence.
    const queued = this.#toServer.push(line, !decide);
    const bodyHash = paramsHash(params, line.indexOf(BACKSLASH) === -1);
    send(channel, { type: "request", key, decide, method, path, bodyHash, id: message.rawId });
    if (decide) this.#awaitingDecision.set(key, queued);
  }

  #fromServer(line: Buffer): void {
    const message = classifyMessage(lineText(line));
    const { channel } = this.#ends;
    if (message.kind === "malformed") send(channel, { type: "malformed" });
    const key = message.kind === "response" ? this.#keyById.get(message.idKey) : undefined;
    const request = key === undefined ? undefined : this.#requests.get(key);
    if (key === undefined || request === undefined || message.kind !== "response") {
      this.#toAgent.push(line, true);
      return;
    }
    this.#forget(key);
    const { outcome } = message;
    send(channel, {
      type: "response",
      key,
      kind: outcome.kind,
      code: outcome.kind === "rpc_error" ? outcome.code : null,
    });
    if (request.delayed) this.#held.set(key, line);
    else this.#awaitingAck.set(key, this.#toAgent.push(line, false));
  }

  /** A request too large to relay: never forwarded; recorded, and answered with an error once it is. */
  #refusedFromAgent(refused: RefusedMessage): void {
    this.onRefused(refusalReason(refused.bytes, "agent"));
    if (refused.kind !== "request" || refused.rawId === null || refused.method === null) return;
    const key = ++this.#nextKey;
    const { method, bodyHash } = refused;
    const path = targetName(method, refused.params);
    send(this.#ends.channel, { type: "oversized_request", key, method, path, bodyHash, id: refused.rawId });
    this.#awaitingAck.set(key, this.#toAgent.push(refusalAnswer(refused.rawId, refused.bytes), false));
  }

  /** An answer too large to relay: the request fails, and the agent gets an error in its place. */
  #refusedFromServer(refused: RefusedMessage): void {
    this.onRefused(refusalReason(refused.bytes, "server"));
    if (refused.kind !== "response" || refused.idKey === null || refused.rawId === null) return;
    const key = this.#keyById.get(refused.idKey);
    if (key === undefined || !this.#requests.has(key)) return;
    this.#forget(key);
    send(this.#ends.channel, { type: "oversized_response", key });
    this.#awaitingAck.set(key, this.#toAgent.push(refusalAnswer(refused.rawId, refused.bytes), false));
  }

  #forget(key: number): void {
    const request = this.#requests.get(key);
    if (request === undefined) return;
    this.#requests.delete(key);
    if (this.#keyById.get(request.idKey) === key) this.#keyById.delete(request.idKey);
  }
}

const waitingForDrain = new WeakSet<Writable>();

/** Writes a line; when the destination is full, the source pauses until it drains. */
function writeWithBackpressure(destination: Writable, line: Buffer, source: Readable): void {
  if (destination.destroyed || destination.writableEnded) return;
  if (destination.write(line) || waitingForDrain.has(destination)) return;
  waitingForDrain.add(destination);
  source.pause();
  destination.once("drain", () => {
    waitingForDrain.delete(destination);
    source.resume();
  });
}
