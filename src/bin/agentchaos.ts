#!/usr/bin/env node
import { runCli } from "../cli/index.js";

const interrupt = new AbortController();
const forceStop = new AbortController();
const onSignal = (): void => {
  if (interrupt.signal.aborted) forceStop.abort();
  else interrupt.abort();
};
process.on("SIGINT", onSignal);
// A closed terminal or pipe (`agentchaos run … | head -1`) only loses output: the run goes on
// and still completes its run folder.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
process.on("SIGTERM", onSignal);

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  interrupt: interrupt.signal,
  forceStop: forceStop.signal,
  byteStreams: () => ({ stdin: process.stdin, stdout: process.stdout }),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const name = error instanceof Error ? error.name : "Error";
    process.stderr.write(`agentchaos: internal error (${name})\n`);
    process.exitCode = 3;
  },
);
