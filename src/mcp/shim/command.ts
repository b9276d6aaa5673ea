import { type CliIo, EXIT } from "../../support/cli-io.js";
import { parseShimArgs } from "./args.js";
import { runShim } from "./shim.js";

/**
 * `agentchaos mcp-shim --dependency NAME --channel PATH --secret HEX` (internal; the run puts
 * it in `AGENTCHAOS_<NAME>_COMMAND` / `_ARGS`). Exit 2 for bad arguments, 1 when it cannot join
 * its run or start the server, else the server's exit code.
 */
export async function mcpShimCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseShimArgs(args);
  const streams = io.byteStreams?.();
  if (typeof parsed === "string" || streams === undefined) {
    io.stderr.write(`agentchaos mcp-shim: ${typeof parsed === "string" ? parsed : "no standard streams"}\n`);
    return EXIT.USAGE;
  }
  // Read when the relay starts: a pipe's stream costs about a millisecond of CPU to make, which
  // is then spent after the server is spawned, not before (docs/mcp.md#cost).
  return runShim(parsed, {
    get stdin() {
      return streams.stdin;
    },
    get stdout() {
      return streams.stdout;
    },
    stderr: io.stderr,
    env: io.env,
    ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt }),
    ...(io.forceStop === undefined ? {} : { forceStop: io.forceStop }),
  });
}
