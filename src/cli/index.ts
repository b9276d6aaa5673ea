import { terminalSafe } from "../terminal-text.js";
import { type CliIo, EXIT } from "./io.js";
import { packageVersion } from "./version.js";

export const HELP = `Usage: agentchaos <command> [options]

Chaos engineering for AI agents: run an agent against a fault-injecting proxy and
decide from recorded evidence whether it PASSED, RECOVERED or FAILED.

Commands:
  run <scenario> [--output-dir PATH]   run an experiment (default output: .agentchaos/runs)
  validate <scenario>                  check a scenario file without starting anything
  inspect <run-folder | report.json>   print the summary of a saved report
  inspect --recover <run-folder> [--write]
                                       the verdict the events of an incomplete run support
                                       (--write: also save it as report.recovered.json)
  version                              print the version

Options:
  --version                            print the version
  --help                               print this help

Exit codes: 0 passed or recovered, 1 failed, 2 invalid input or usage,
3 setup or internal error, 130 interrupted.
`;

function usageError(io: CliIo, message: string): number {
  io.stderr.write(`Error: ${terminalSafe(message)}\nRun 'agentchaos --help' for usage.\n`);
  return EXIT.USAGE;
}

/**
 * Parses `<command> <one positional> [--output-dir PATH] [flags]`; returns an error string on
 * misuse. `flags` are the boolean options the command accepts.
 */
function parseArgs(
  args: readonly string[],
  allowOutputDir: boolean,
  flags: readonly string[] = [],
): { positional: string; outputDir: string | null; flags: Set<string> } | string {
  let positional: string | null = null;
  let outputDir: string | null = null;
  const given = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (flags.includes(arg)) {
      given.add(arg);
    } else if (allowOutputDir && (arg === "--output-dir" || arg.startsWith("--output-dir="))) {
      const value = arg === "--output-dir" ? args[++i] : arg.slice("--output-dir=".length);
      if (value === undefined || value === "") return "--output-dir needs a path";
      outputDir = value;
    } else if (arg.startsWith("-") && arg !== "-") {
      return `unknown option '${arg}'`;
    } else if (positional === null) {
      positional = arg;
    } else {
      return `unexpected argument '${arg}'`;
    }
  }
  if (positional === null) return "missing argument";
  return { positional, outputDir, flags: given };
}

/** The CLI core: takes argv (without node and script) and streams, returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout.write(HELP);
    return EXIT.OK;
  }
  if (command === "--version" || command === "version") {
    if (rest.length > 0) return usageError(io, `unexpected argument '${rest[0]}'`);
    io.stdout.write(`agentchaos ${packageVersion()}\n`);
    return EXIT.OK;
  }
  if (command !== "run" && command !== "validate" && command !== "inspect") {
    return usageError(io, `unknown command '${command}'`);
  }
  if (rest.includes("--help")) {
    io.stdout.write(HELP);
    return EXIT.OK;
  }
  const parsed = parseArgs(rest, command === "run", command === "inspect" ? ["--recover", "--write"] : []);
  if (typeof parsed === "string") {
    const what = command === "inspect" ? "a run folder or report.json" : "a scenario file";
    return usageError(io, parsed === "missing argument" ? `'${command}' needs ${what}` : parsed);
  }
  switch (command) {
    case "validate": {
      const { validateCommand } = await import("./commands/validate.js");
      return validateCommand(parsed.positional, io);
    }
    case "inspect": {
      if (parsed.flags.has("--recover")) {
        const { recoverCommand } = await import("./commands/recover.js");
        return recoverCommand(parsed.positional, parsed.flags.has("--write"), io);
      }
      if (parsed.flags.has("--write")) return usageError(io, "--write is only used with --recover");
      const { inspectCommand } = await import("./commands/inspect.js");
      return inspectCommand(parsed.positional, io);
    }
    case "run": {
      const { runCommand } = await import("./commands/run.js");
      return runCommand(parsed.positional, parsed.outputDir, io);
    }
  }
}
