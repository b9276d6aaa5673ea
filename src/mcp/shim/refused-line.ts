import { createHash } from "node:crypto";
import { idKeyOf } from "../json-rpc.js";
import { type OversizedLine, STDIO_LINE_LIMIT } from "../lines.js";
import { MemberScanner } from "../member-scanner.js";

/** What the shim knows of a line it refused for its size: never its payload. */
export interface RefusedMessage {
  /** The line's size in bytes, its newline not counted. */
  readonly bytes: number;
  /** SHA-256 (hex) of the line's bytes: its `body_hash` when it is recorded as a request. */
  readonly bodyHash: string;
  readonly kind: "request" | "response" | "other";
  /** The id's raw JSON text and its key (requests and responses only). */
  readonly rawId: string | null;
  readonly idKey: string | null;
  readonly method: string | null;
  readonly params: { readonly name?: string; readonly uri?: string };
}

/**
 * Takes the bytes of a line over the stdio limit as they arrive, holding none of them: it
 * counts and hashes them and finds the members that say what the message was, then hands
 * that over once the line has ended.
 */
export class RefusedLine implements OversizedLine {
  readonly #hash = createHash("sha256");
  readonly #scanner = new MemberScanner();
  readonly #done: (message: RefusedMessage) => void;
  #bytes = 0;

  constructor(done: (message: RefusedMessage) => void) {
    this.#done = done;
  }

  data(piece: Buffer): void {
    this.#bytes += piece.length;
    this.#hash.update(piece);
    this.#scanner.push(piece);
  }

  end(): void {
    const { method, rawId, hasResult, hasError, params } = this.#scanner.result();
    const idKey = rawId === null ? null : idKeyOf(JSON.parse(rawId));
    const kind =
      idKey === null ? "other" : method !== null ? "request" : hasResult || hasError ? "response" : "other";
    this.#done({
      bytes: this.#bytes,
      bodyHash: this.#hash.digest("hex"),
      kind,
      rawId: kind === "other" ? null : rawId,
      idKey: kind === "other" ? null : idKey,
      method,
      params,
    });
  }
}

/** The JSON-RPC error code of a refused message's answer: an internal error of the relay. */
export const REFUSED_CODE = -32603;

/** Why a message from `source` was refused, in words (the shim's stderr line). */
export function refusalReason(bytes: number, source: "agent" | "server"): string {
  return `refused a message of ${bytes} bytes from the ${source}: ${LIMIT_TEXT}`;
}

const LIMIT_TEXT = `an MCP stdio message may hold at most ${STDIO_LINE_LIMIT} bytes (64 MiB)`;

/** The error answer the agent gets in place of a refused request or response with id `rawId`. */
export function refusalAnswer(rawId: string, bytes: number): Buffer {
  const error = {
    code: REFUSED_CODE,
    message: `Agent Chaos refused a message of ${bytes} bytes: ${LIMIT_TEXT}`,
  };
  return Buffer.from(`{"jsonrpc":"2.0","id":${rawId},"error":${JSON.stringify(error)}}\n`, "utf8");
}
