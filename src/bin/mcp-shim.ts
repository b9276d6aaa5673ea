#!/usr/bin/env node
/**
 * The MCP stdio shim's own executable: `agentchaos mcp-shim` without the rest of the CLI, taking
 * the same command line (`mcp-shim --dependency NAME ...`). A run hands this one to its workload
 * (docs/mcp.md#cost): it is built into a single file that loads only the shim, so that each
 * server an agent starts costs as little start-up as possible.
 */
import { mcpShimCommand } from "../mcp/shim/command.js";
import { exitOnInternalError, exitWhenFlushed, listenForInterrupts, processIo } from "./process-exit.js";

const [command, ...args] = process.argv.slice(2);
const signals = listenForInterrupts(true);

if (command !== "mcp-shim") {
  process.stderr.write("agentchaos mcp-shim: this script runs only the `mcp-shim` command\n");
  exitWhenFlushed(2);
} else {
  mcpShimCommand(args, processIo(signals)).then(exitWhenFlushed, exitOnInternalError("agentchaos mcp-shim"));
}
