#!/usr/bin/env node
import { runCli } from "../cli/index.js";
import { exitOnInternalError, exitWhenFlushed, listenForInterrupts } from "./process-exit.js";

const argv = process.argv.slice(2);
// These commands finish their work when interrupted (a run folder, a suite's or an exploration's
// reports; a server's or shim's own shutdown); every other command has nothing to complete and
// stops at once with the code of an interruption.
const completesOnInterrupt = ["run", "suite", "explore", "fake-llm", "mcp-shim"].includes(argv[0] ?? "");
const { interrupt, forceStop } = listenForInterrupts(completesOnInterrupt);

runCli(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  interrupt,
  forceStop,
  byteStreams: () => ({ stdin: process.stdin, stdout: process.stdout }),
}).then(exitWhenFlushed, exitOnInternalError("agentchaos"));
