/**
 * Record and replay of an `mcp_stdio` dependency, on the run's side (docs/replay.md). The shim
 * is a thin relay: when recording, it copies every line both ways to the run, which pairs each
 * answer with its request by id and adds one interaction per answered request, in answer order;
 * when replaying, it runs no server and hands the run each line meant for it, which answers a
 * request from the cassette with the live id (a request never recorded gets the JSON-RPC error
 * -32603 naming the differing pointers), and drops notifications and the agent's responses.
 * The key is the MCP identity: method, target name and the hash of `params` without `_meta`.
 */

import type { ReplayMismatch } from "../../proxy/cassette-upstream.js";
import {
  type Cassette,
  type CassetteBuilder,
  type Interaction,
  ReplayMatcher,
  type RequestKeyFields,
  redactJsonText,
  requestShape,
} from "../../replay/cassette.js";
import type { ReplayMatchField } from "../../scenario/types.js";
import { cassetteRequestOf } from "../cassette-request.js";
import { classifyMessage } from "../json-rpc.js";
import { withAnswerId } from "../replay-answers.js";

/** JSON-RPC "internal error": the answer to a request the cassette never recorded. */
export const REPLAY_MISMATCH_RPC_CODE = -32603;

/** A request no interaction answers, as the run reports it (pointers only, never values). */
export type StdioMismatch = Omit<ReplayMismatch, "dependency">;

interface KeyedLine {
  readonly key: RequestKeyFields;
  readonly shape: Buffer;
  readonly rawId: string;
  readonly idKey: string;
}

function keyedRequest(line: string): KeyedLine | null {
  const message = classifyMessage(line);
  if (message.kind !== "request") return null;
  return {
    ...cassetteRequestOf(message.method, message.params),
    rawId: message.rawId,
    idKey: message.idKey,
  };
}

/** What the replayed server says to one line: an answer line (or nothing), and a mismatch's id. */
export interface ServedLine {
  readonly answer: string | null;
  /** The live id (JSON text) of a request answered as a mismatch. */
  readonly mismatchedId: string | null;
}

/** Serves an `mcp_stdio` dependency from its cassette; one per dependency (every session). */
export class StdioCassetteServer {
  readonly mode = "serve";
  readonly #matcher: ReplayMatcher;
  readonly #onMismatch: (mismatch: StdioMismatch, line: string) => void;
  readonly #carriesCanary: (line: string) => boolean;

  constructor(
    cassette: Cassette,
    onMismatch: (mismatch: StdioMismatch) => void,
    carriesCanary: (line: string) => boolean,
    match: readonly ReplayMatchField[] = cassette.header.match,
  ) {
    this.#matcher = new ReplayMatcher(cassette, match);
    this.#onMismatch = onMismatch;
    this.#carriesCanary = carriesCanary;
  }

  serve(line: string): ServedLine {
    const request = keyedRequest(line);
    if (request === null) return { answer: null, mismatchedId: null };
    const recorded = this.#matcher.next(request.key);
    if (recorded !== null)
      return { answer: withAnswerId(recorded.body ?? "", request.rawId), mismatchedId: null };
    const { method, path } = request.key;
    const nearest = this.#matcher.nearest(method, path, request.shape);
    const mismatch: StdioMismatch = {
      method,
      path,
      nearestFound: nearest.found,
      pointers: nearest.pointers,
      canaryCarried: this.#carriesCanary(line),
    };
    this.#onMismatch(mismatch, line);
    const error = {
      code: REPLAY_MISMATCH_RPC_CODE,
      message: "replay mismatch: this request was not recorded",
      data: { type: "replay_mismatch", differing_pointers: nearest.found ? nearest.pointers : null },
    };
    return {
      answer: `{"jsonrpc":"2.0","id":${request.rawId},"error":${JSON.stringify(error)}}`,
      mismatchedId: request.rawId,
    };
  }
}

/** Records one session's answered requests into the dependency's cassette. */
export class StdioSessionRecorder {
  readonly #builder: CassetteBuilder;
  readonly #redact: readonly string[];
  readonly #asked = new Map<string, KeyedLine>();

  constructor(builder: CassetteBuilder, redact: readonly string[]) {
    this.#builder = builder;
    this.#redact = redact;
  }

  tapped(from: "agent" | "server", line: string): void {
    if (from === "agent") {
      const request = keyedRequest(line);
      if (request !== null) this.#asked.set(request.idKey, request);
      return;
    }
    const message = classifyMessage(line);
    if (message.kind !== "response") return;
    const request = this.#asked.get(message.idKey);
    if (request === undefined) return;
    this.#asked.delete(message.idKey);
    const interaction: Interaction = {
      ...request.key,
      request_shape: requestShape(request.shape, this.#builder.salt),
      status: 200,
      headers: { "content-type": "application/json" },
      body: redactJsonText(line, this.#redact),
    };
    this.#builder.add(interaction);
  }
}

/** How a replayed `mcp_stdio` dependency takes part in the run. */
export type StdioReplay =
  | { readonly mode: "serve"; readonly server: StdioCassetteServer }
  | { readonly mode: "record"; readonly builder: CassetteBuilder; readonly redact: readonly string[] };
