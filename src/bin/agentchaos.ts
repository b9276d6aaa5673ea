#!/usr/bin/env node
import { runCli } from "../cli/index.js";

const argv = process.argv.slice(2);
const interrupt = new AbortController();
const forceStop = new AbortController();
// These commands finish their work when interrupted (a run folder, a suite's or an exploration's
// reports; a server's or shim's own shutdown); every other command has nothing to complete and
// stops at once with the code of an interruption.
const completesOnInterrupt = ["run", "suite", "explore", "fake-llm", "mcp-shim"].includes(argv[0] ?? "");
const onSignal = (): void => {
  if (!completesOnInterrupt) process.exit(130);
  if (interrupt.signal.aborted) forceStop.abort();
  else interrupt.abort();
};
process.on("SIGINT", onSignal);
// A closed terminal or pipe (`agentchaos run … | head -1`) only loses output: the run goes on
// and still completes its run folder.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
process.on("SIGTERM", onSignal);

/**
 * Exits with `code` once the output is flushed. Nothing a command leaves open by mistake (a
 * child's pipe, a timer) can keep the process alive after its result is known; a process it
 * leaves behind is ended by the supervisor when this process is gone.
 */
function exit(code: number): void {
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

runCli(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  interrupt: interrupt.signal,
  forceStop: forceStop.signal,
  byteStreams: () => ({ stdin: process.stdin, stdout: process.stdout }),
}).then(exit, (error: unknown) => {
  const name = error instanceof Error ? error.name : "Error";
  process.stderr.write(`agentchaos: internal error (${name})\n`);
  exit(3);
});
