/**
 * The local channel between a shim and its run: newline-delimited JSON over a Unix socket in a
 * private folder, first message a `join` carrying the run's secret. The shim reads and relays
 * the JSON-RPC traffic itself; the run only ever sees names, hashes, ids and outcomes — except
 * for a dependency with `replay` (docs/replay.md), whose lines the run records or answers.
 */

import type { Socket } from "node:net";
import type { CanaryType } from "../../faults/corruption/canary.js";
import type { McpTarget } from "../../scenario/types.js";
import type { ToolsChange } from "../faults/session-tools.js";
import { LineSplitter, lineText, STDIO_LINE_LIMIT } from "../lines.js";

export type ResponseKind = "result" | "tool_error" | "rpc_error";

/** What the shim tells the run of a request: its key on the channel, and the facts the evidence records. */
interface RequestFacts {
  readonly key: number;
  readonly method: string;
  readonly path: string;
  readonly bodyHash: string;
  readonly id: string;
}

/** Shim → run. */
export type ShimMessage =
  | { readonly type: "join"; readonly secret: string; readonly dependency: string }
  | { readonly type: "spawned"; readonly pid: number }
  | { readonly type: "spawn_failed"; readonly errno: string }
  /**
   * A JSON-RPC request from the agent. When `decide` is set (a fault targets it) the shim waits
   * for its `decision`; otherwise it has already forwarded it and only the evidence is recorded.
   */
  | (RequestFacts & {
      readonly type: "request";
      readonly decide: boolean;
      /** The faults whose watched canary the request line holds (see `canaries`); absent: none. */
      readonly canaries?: readonly string[];
    })
  /** The server answered request `key`; the shim hands the answer over on `ack`. */
  | {
      readonly type: "response";
      readonly key: number;
      readonly kind: ResponseKind;
      readonly code: number | null;
      /** A corrupted answer: the replaced value's JSON type, or why nothing was replaced. */
      readonly corrupted?: CanaryType | "pointer_not_found" | "not_json";
    }
  /**
   * A request line over the size limit: refused, never forwarded. The run records it as a
   * `proxy_error` (`bodyHash` hashes the whole line); the shim answers the agent on `ack`.
   */
  | (RequestFacts & { readonly type: "oversized_request" })
  /** The server's answer to request `key` was over the size limit: refused, the request fails. */
  | { readonly type: "oversized_response"; readonly key: number }
  | { readonly type: "cancelled"; readonly key: number }
  | { readonly type: "malformed" }
  /** The server process ended: its exit code, or minus the signal number. */
  | { readonly type: "exited"; readonly exitCode: number | null }
  /** Replay (`replay: "serve"`): a line the agent's side sends the server the cassette stands in for. */
  | { readonly type: "server_line"; readonly line: string }
  /** Recording (`replay: "record"`): a line the agent sent the real server, or one the server sent. */
  | { readonly type: "tapped"; readonly from: "agent" | "server"; readonly line: string };

export type Decision =
  | {
      readonly action: "forward";
      readonly delayed: boolean;
      /** `mcp_oversized`: the answer's result is padded to this many bytes. */
      readonly padTo?: number;
      /** `mcp_tools_changed`: the session's tools change before the answer. */
      readonly toolsChange?: ToolsChange;
      /** `mcp_corrupt_result`: where in the answer, and the canary values to write. */
      readonly corrupt?: {
        readonly tokens: readonly string[];
        readonly text: string;
        readonly integer: number;
      };
    }
  | { readonly action: "answer"; readonly message: string }
  | { readonly action: "withhold" }
  | { readonly action: "disconnect" };

/** A canary a sink dependency's shim looks for in each request line. */
export interface WatchedCanary {
  readonly faultId: string;
  readonly literals: readonly string[];
}

/** Run → shim. */
export type RunMessage =
  | {
      readonly type: "welcome";
      readonly command: readonly string[];
      readonly cwd: string;
      readonly env: Readonly<Record<string, string>>;
      /** The targets of the dependency's faults: only requests they match wait for a decision. */
      readonly targets: readonly McpTarget[];
      /** Canaries already watched in this dependency's requests. */
      readonly canaries?: readonly WatchedCanary[];
      /**
       * docs/replay.md: `serve`: no server runs, the run answers every line (`server_line`);
       * `record`: the server runs and the shim copies each line both ways to the run (`tapped`).
       */
      readonly replay?: "serve" | "record";
    }
  /** Replay: a line the server the cassette stands in for writes. */
  | { readonly type: "server_line"; readonly line: string }
  /** From now on, request lines holding one of these literals are reported (`request.canaries`). */
  | { readonly type: "canaries"; readonly canaries: readonly WatchedCanary[] }
  | { readonly type: "refused" }
  | ({ readonly type: "decision"; readonly key: number } & Decision)
  | { readonly type: "ack"; readonly key: number }
  | { readonly type: "stop" }
  /** The session's end is recorded; nothing more will come. */
  | { readonly type: "ended" };

export function send(socket: Socket, message: ShimMessage | RunMessage): void {
  if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(message)}\n`);
}

/**
 * The longest channel message: room for a synthetic answer as long as the longest stdio line,
 * written as a JSON string (escaping at most doubles a JSON text), and the message around it.
 */
export const CHANNEL_LINE_LIMIT = 2 * STDIO_LINE_LIMIT + 64 * 1024;

/**
 * Reads the channel's messages. A line that is not a JSON object, a message its handler cannot
 * take, or a line over the limit ends the connection: a misbehaving peer never takes the
 * process down, nor makes it hold more than one message.
 */
export function onMessages<T>(
  socket: Socket,
  handle: (message: T) => void,
  limit = CHANNEL_LINE_LIMIT,
): void {
  const lines = new LineSplitter({
    limit,
    oversized: () => {
      socket.destroy();
      return { data: () => {}, end: () => {} };
    },
  });
  socket.on("data", (chunk: Buffer) => {
    lines.push(chunk, (line) => {
      if (socket.destroyed) return;
      try {
        const message: unknown = JSON.parse(lineText(line));
        if (message === null || typeof message !== "object") throw new TypeError("not a message");
        handle(message as T);
      } catch {
        socket.destroy();
      }
    });
  });
}
