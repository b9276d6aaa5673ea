#!/usr/bin/env node
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { rawCommand } from "../cli/raw-commands.js";
import { useCodeCache } from "./code-cache.js";
import { exitOnInternalError, exitWhenFlushed, listenForInterrupts, processIo } from "./process-exit.js";

const argv = process.argv.slice(2);
// These commands finish their work when interrupted (a run folder, a suite's or an exploration's
// reports; a server's or shim's own shutdown); every other command has nothing to complete and
// stops at once with the code of an interruption.
const completesOnInterrupt = ["run", "suite", "explore", "fake-llm", "mcp-shim"].includes(argv[0] ?? "");
// The handlers are in place before the rest of the CLI is loaded, so that an interruption that
// comes while it loads is answered like any other (exit 130), not by Node's default (death by
// the signal).
const io = processIo(listenForInterrupts(completesOnInterrupt));
useCodeCache(dirname(fileURLToPath(import.meta.url)));

// A command that reads its own arguments starts without the rest of the CLI (its table, its
// argument parser, the version): `fake-llm` is started by many scenarios as a dependency.
const raw = rawCommand(argv[0]);
const exitCode =
  raw !== undefined
    ? raw(argv.slice(1), io)
    : import("../cli/index.js").then(({ runCli }) => runCli(argv, io));
exitCode.then(exitWhenFlushed, exitOnInternalError("agentchaos"));
