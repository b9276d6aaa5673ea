import type { Readable, Writable } from "node:stream";

/** What the CLI core may touch: its streams, environment and working directory. Only bin/ touches `process`. */
export interface CliStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface CliIo {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Interruption requests (SIGINT/SIGTERM) are delivered through this signal, if given. */
  readonly interrupt?: AbortSignal;
  /** A second interruption: skip grace periods (processes are still all stopped). */
  readonly forceStop?: AbortSignal;
  /** The process's stdin and stdout as byte streams (only `mcp-shim` relays them). */
  readonly byteStreams?: () => { readonly stdin: Readable; readonly stdout: Writable };
}

export const EXIT = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  SETUP: 3,
  INTERRUPTED: 130,
} as const;
