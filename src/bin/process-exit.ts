/**
 * How an executable of this package leaves: with its code once its output is flushed, and how
 * SIGINT / SIGTERM reach the command it runs. Shared by `agentchaos` and the MCP stdio shim's
 * own entry (docs/mcp.md).
 */

import type { CliIo } from "../support/cli-io.js";

export interface InterruptSignals {
  /** The first SIGINT / SIGTERM. */
  readonly interrupt: AbortSignal;
  /** A second one: no grace period. */
  readonly forceStop: AbortSignal;
}

/**
 * Listens for SIGINT and SIGTERM. A command that completes its work when interrupted gets them
 * as signals; any other command stops at once with the code of an interruption. A closed
 * terminal or pipe (`agentchaos run … | head -1`) only loses output: the work goes on.
 */
export function listenForInterrupts(completesOnInterrupt: boolean): InterruptSignals {
  const interrupt = new AbortController();
  const forceStop = new AbortController();
  const onSignal = (): void => {
    if (!completesOnInterrupt) process.exit(130);
    if (interrupt.signal.aborted) forceStop.abort();
    else interrupt.abort();
  };
  process.on("SIGINT", onSignal);
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
  process.on("SIGTERM", onSignal);
  return { interrupt: interrupt.signal, forceStop: forceStop.signal };
}

/** This process's streams, folder, environment and interrupt signals, as a command takes them. */
export function processIo(signals: InterruptSignals): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    interrupt: signals.interrupt,
    forceStop: signals.forceStop,
    // Getters: Node.js makes a standard stream when it is first read (the shim reads stdin late).
    byteStreams: () => ({
      get stdin() {
        return process.stdin;
      },
      get stdout() {
        return process.stdout;
      },
    }),
  };
}

/**
 * Exits with `code` once the output is flushed. Nothing a command leaves open by mistake (a
 * child's pipe, a timer) can keep the process alive after its result is known; a process it
 * leaves behind is ended by the supervisor when this process is gone.
 */
export function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  let pending = 2;
  // A signal that arrived during the last synchronous stretch of work is still waiting in the
  // event loop: one full turn (two checks apart) lets its handler run first and exit 130.
  const done = (): void => {
    pending--;
    if (pending === 0) setImmediate(() => setImmediate(() => process.exit(code)));
  };
  process.stdout.write("", done);
  process.stderr.write("", done);
  setTimeout(() => process.exit(code), 1000).unref();
}

/** The last word of a command that threw: its error's name only, and the setup exit code. */
export function exitOnInternalError(program: string): (error: unknown) => void {
  return (error) => {
    const name = error instanceof Error ? error.name : "Error";
    process.stderr.write(`${program}: internal error (${name})\n`);
    exitWhenFlushed(3);
  };
}
