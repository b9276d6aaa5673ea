import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";
import { compileTarget } from "../../scenario/target.js";
import type { McpTarget } from "../../scenario/types.js";
import { paddedAnswer } from "../faults/padded-answer.js";
import { LIST_CHANGED_NOTIFICATION, removedToolAnswer, SessionTools } from "../faults/session-tools.js";
import { paramsHash, targetName } from "../identity.js";
import { cancelledIdKey, classifyMessage } from "../json-rpc.js";
import { LineSplitter, lineText, STDIO_LINE_LIMIT } from "../lines.js";
import { type Decision, send, type WatchedCanary } from "../stdio/channel.js";
import { writeWithBackpressure } from "./backpressure.js";
import { HeldAnswers } from "./held-answers.js";
import { type CorruptOrder, corruptLine, LineCanaries } from "./line-canaries.js";
import { OrderedWriter, type QueuedLine } from "./ordered-writer.js";
import { quickLook } from "./quick-look.js";
import { RefusedLine, type RefusedMessage, refusalAnswer, refusalReason } from "./refused-line.js";

const [BACKSLASH, NEWLINE] = [0x5c, 0x0a];
/** A line at least this long (a pipe's buffer) may move on before it is parsed for the evidence. */
const EARLY_FORWARD_BYTES = 64 * 1024;

interface ForwardedRequest {
  readonly idKey: string;
  readonly rawId: string;
  readonly method: string;
  /** The target name (a tool's name for `tools/call`). */
  readonly path: string;
  /** `mcp_corrupt_result`: the answer is rewritten before the agent gets it. */
  corrupt?: CorruptOrder;
  /** `mcp_latency`: the answer leaves the ordered queue and goes out when the run says so. */
  delayed: boolean;
  /** `mcp_oversized`: the answer's result is padded to this many bytes. */
  padTo: number | null;
  /** The agent sent `notifications/cancelled` for it: its answer is never relayed. */
  cancelled: boolean;
  /** `mcp_no_response`: never sent to the server, so no answer will come. */
  withheld: boolean;
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
 * The shim's two line relays. Agent → server: each request a fault targets waits for the run's
 * decision (the lines behind it wait too); everything else passes. Server → agent: the answer
 * to a recorded request waits until the run has recorded its evidence (a large one waits only
 * for its newline); everything else passes. Malformed
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
  readonly #held = new HeldAnswers();
  /** The session's tools as `mcp_tools_changed` left them. */
  readonly #tools = new SessionTools();
  readonly #canaries = new LineCanaries();
  readonly #targeted: (facts: { method: string; path: string }) => boolean;
  #nextKey = 0;
  /** Cancelled requests whose answer may still come (answers are looked at only while there are some). */
  #cancelledOpen = 0;
  /** The evidence of a line forwarded before it was read, sent once the server has the line. */
  #pendingEvidence: (() => void) | null = null;
  #agentOutClosed = false;

  constructor(ends: RelayEnds) {
    this.#ends = ends;
    const matchers = ends.targets.map((target) => compileTarget(target));
    this.#targeted = (facts) => matchers.some((matches) => matches({ protocol: "mcp", ...facts }));
    this.#toServer = new OrderedWriter((line, written) =>
      writeWithBackpressure(ends.serverIn, line, ends.agentIn, written),
    );
    this.#toAgent = new OrderedWriter((line, written) => {
      if (this.#agentOutClosed) written();
      else writeWithBackpressure(ends.agentOut, line, ends.serverOut, written);
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

  /** The run armed canaries this dependency is a sink of: request lines are scanned for them. */
  watch(canaries: readonly WatchedCanary[]): void {
    this.#canaries.add(canaries);
  }

  /** A message from the run about one request. */
  decided(key: number, decision: Decision): void {
    const entry = this.#awaitingDecision.get(key);
    if (entry === undefined) return;
    this.#awaitingDecision.delete(key);
    const request = this.#requests.get(key);
    if (decision.action === "forward") {
      if (request !== undefined) {
        request.delayed = decision.delayed;
        request.padTo = decision.padTo ?? null;
        if (decision.corrupt !== undefined) request.corrupt = decision.corrupt;
      }
      if (decision.toolsChange !== undefined) {
        this.#tools.apply(decision.toolsChange);
        this.#toAgent.push(Buffer.from(`${LIST_CHANGED_NOTIFICATION}\n`, "utf8"), true);
      }
      if (request !== undefined && this.#tools.removes(request.method, request.path)) {
        this.#toServer.release(entry, null);
        this.#answerRemoved(key);
      } else {
        this.#toServer.release(entry);
      }
      return;
    }
    this.#toServer.release(entry, null);
    // A withheld request stays known by its id: the agent may still cancel it.
    if (decision.action === "withhold" && request !== undefined) request.withheld = true;
    else this.#forget(key);
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
    const held = this.#held.take(key);
    if (held !== undefined) this.#toAgent.push(held, true);
  }

  /** No line goes to the agent any more (a disconnect, or the end of the session). */
  closeAgentOutput(): void {
    if (this.#agentOutClosed) return;
    this.#agentOutClosed = true;
    this.#ends.agentOut.end();
  }

  /**
   * Sends the run the evidence of a line that went to the server before it was read, if it is
   * still pending. Called before anything else is told to the run, so the run hears of every
   * line in the order the lines came.
   */
  settle(): void {
    const pending = this.#pendingEvidence;
    this.#pendingEvidence = null;
    pending?.();
  }

  #fromAgent(line: Buffer): void {
    this.settle();
    if (line.length >= EARLY_FORWARD_BYTES && this.#toServer.idle && !this.#mayWaitForDecision(line)) {
      // A large line no fault can target goes out first; it is parsed for the evidence once the
      // server has it (the agent cannot see an answer before that evidence is recorded).
      const evidence = (): void => this.#readAgentLine(line, true);
      this.#pendingEvidence = evidence;
      this.#toServer.push(line, true, undefined, () => {
        if (this.#pendingEvidence === evidence) this.settle();
      });
      return;
    }
    this.#readAgentLine(line, false);
  }

  /** Whether a line may be a request that a fault targets (a quick look, sure only when it says no). */
  #mayWaitForDecision(line: Buffer): boolean {
    if (this.#ends.targets.length === 0 && !this.#tools.active) return false;
    const look = quickLook(line);
    if (!look.sure) return true;
    return look.kind === "request" && (this.#targeted(look) || this.#tools.removes(look.method, look.path));
  }

  /**
   * A large line from the server goes to the agent at once but for its newline, which follows
   * once the evidence is in: the agent cannot read a line before its end. Not for the answer to
   * a delayed request, which must not hold back the lines behind it. Returns what is left to write.
   */
  #handOverEarly(line: Buffer): Buffer {
    const end = line.length - 1;
    if (
      line.length < EARLY_FORWARD_BYTES ||
      line[end] !== NEWLINE ||
      !this.#toAgent.idle ||
      this.#agentOutClosed
    ) {
      return line;
    }
    const look = quickLook(line);
    if (!look.sure) return line;
    if (look.kind === "response") {
      const key = this.#keyById.get(look.idKey);
      if (key !== undefined && this.#keepsWhole(this.#requests.get(key))) return line;
    }
    this.#toAgent.push(line.subarray(0, end), true);
    return line.subarray(end);
  }

  /** Classifies a line from the agent, tells the run, and forwards it (unless `forwarded` already). */
  #readAgentLine(line: Buffer, forwarded: boolean): void {
    const message = classifyMessage(lineText(line));
    const { channel } = this.#ends;
    if (message.kind === "malformed") send(channel, { type: "malformed" });
    if (message.kind !== "request") {
      const cancelled = cancelledIdKey(message);
      const key =
        cancelled === null ? undefined : (this.#keyById.get(cancelled) ?? this.#held.keyOf(cancelled));
      if (key !== undefined) this.#cancel(key);
      if (!forwarded) this.#toServer.push(line, true);
      return;
    }
    const key = ++this.#nextKey;
    const { method, params, rawId } = message;
    const path = targetName(method, params);
    this.#requests.set(key, {
      idKey: message.idKey,
      rawId,
      method,
      path,
      delayed: false,
      padTo: null,
      cancelled: false,
      withheld: false,
    });
    this.#keyById.set(message.idKey, key);
    const decide = !forwarded && this.#targeted({ method, path });
    // A call to a tool `mcp_tools_changed` removed never reaches the server.
    const removed = !forwarded && this.#tools.removes(method, path);
    // A request no fault targets is on its way before its params are hashed for the evidence.
    const queued = forwarded ? null : this.#toServer.push(removed ? null : line, !decide);
    const bodyHash = paramsHash(params, line.indexOf(BACKSLASH) === -1);
    const canaries = this.#canaries.seenIn(line);
    send(channel, {
      type: "request",
      key,
      decide,
      method,
      path,
      bodyHash,
      id: rawId,
      ...(canaries.length === 0 ? {} : { canaries }),
    });
    if (decide && queued !== null) this.#awaitingDecision.set(key, queued);
    else if (removed) this.#answerRemoved(key);
  }

  /** The agent cancelled request `key`: the run records it; an answer held for it is dropped. */
  #cancel(key: number): void {
    const request = this.#requests.get(key);
    if (request !== undefined && !request.cancelled) {
      request.cancelled = true;
      this.#cancelledOpen++;
    }
    this.#held.take(key);
    send(this.#ends.channel, { type: "cancelled", key });
    if (request?.withheld === true) this.#forget(key);
  }

  #fromServer(line: Buffer): void {
    this.settle();
    if (this.#dropAnswerToCancelled(line)) return;
    const rest = this.#handOverEarly(line);
    const message = classifyMessage(lineText(line));
    const { channel } = this.#ends;
    if (message.kind === "malformed") send(channel, { type: "malformed" });
    const key = message.kind === "response" ? this.#keyById.get(message.idKey) : undefined;
    const request = key === undefined ? undefined : this.#requests.get(key);
    if (key === undefined || request === undefined || message.kind !== "response") {
      this.#toAgent.push(rest, true);
      return;
    }
    this.#forget(key);
    const { outcome } = message;
    const corrupted = request.corrupt === undefined ? null : corruptLine(line, request.corrupt);
    send(channel, {
      type: "response",
      key,
      kind: outcome.kind,
      code: outcome.kind === "rpc_error" ? outcome.code : null,
      ...(corrupted === null ? {} : { corrupted: corrupted.outcome }),
    });
    const answer = corrupted?.line ?? this.#changedAnswer(request, line) ?? rest;
    // (A line handed over early is never held apart: the lines behind it wait for its newline.)
    if (request.delayed && rest === line) this.#held.hold(key, request.idKey, answer);
    else this.#awaitingAck.set(key, this.#toAgent.push(answer, false));
  }

  /** Whether the answer to `request` may not go out before it is whole (held, padded or rewritten). */
  #keepsWhole(request: ForwardedRequest | undefined): boolean {
    if (request === undefined) return false;
    return (
      request.delayed ||
      request.padTo !== null ||
      request.corrupt !== undefined ||
      this.#tools.rewrites(request.method)
    );
  }

  /** The answer `mcp_oversized` or `mcp_tools_changed` gives in place of the server's line, or null. */
  #changedAnswer(request: ForwardedRequest, line: Buffer): Buffer | null {
    if (request.padTo !== null) return paddedAnswer(lineText(line), request.padTo, "\n");
    if (!this.#tools.rewrites(request.method)) return null;
    const list = this.#tools.rewriteList(lineText(line));
    return list === null ? null : Buffer.from(`${list}\n`, "utf8");
  }

  /** Answers a call to a removed tool as its server would: the answer goes the way of the server's. */
  #answerRemoved(key: number): void {
    const request = this.#requests.get(key);
    if (request === undefined) return;
    this.#fromServer(Buffer.from(`${removedToolAnswer(request.rawId, request.path)}\n`, "utf8"));
  }

  /**
   * The server's answer to a request the agent cancelled: its evidence goes to the run (the
   * operation has ended already, so nothing more is recorded), the line goes nowhere.
   */
  #dropAnswerToCancelled(line: Buffer): boolean {
    if (this.#cancelledOpen === 0) return false;
    const message = classifyMessage(lineText(line));
    if (message.kind !== "response") return false;
    const key = this.#keyById.get(message.idKey);
    const request = key === undefined ? undefined : this.#requests.get(key);
    if (key === undefined || request === undefined || !request.cancelled) return false;
    this.#forget(key);
    const { outcome } = message;
    const code = outcome.kind === "rpc_error" ? outcome.code : null;
    send(this.#ends.channel, { type: "response", key, kind: outcome.kind, code });
    return true;
  }

  /** A request too large to relay: never forwarded; recorded, and answered with an error once it is. */
  #refusedFromAgent(refused: RefusedMessage): void {
    this.settle();
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
    this.settle();
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
    if (request.cancelled) this.#cancelledOpen--;
    this.#requests.delete(key);
    if (this.#keyById.get(request.idKey) === key) this.#keyById.delete(request.idKey);
  }
}
