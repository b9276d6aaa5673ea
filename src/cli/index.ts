import { type CliIo, EXIT } from "../support/cli-io.js";
import { packageVersion } from "../support/version.js";
import { type ArgsSpec, asksForHelp, type ParsedArgs, parseCommandArgs } from "./args.js";
import { rawCommand } from "./raw-commands.js";
import { usageError } from "./usage.js";

export const HELP = `Usage: agentchaos <command> [options]

Chaos engineering for AI agents: run an agent against a fault-injecting proxy and
decide from recorded evidence whether it PASSED, RECOVERED or FAILED.

Commands:
  run <scenario> [--output-dir PATH] [--reporter LIST]
      [--trials N] [--jobs N] [--min-pass-rate R]
                                       run an experiment (default output: .agentchaos/runs);
                                       a folder means its scenario.yaml
  suite <scenario-or-folder>... [--jobs N] [--shard I/N] [--output-dir DIR]
        [--reporter LIST] [--grep TEXT] [--grep-invert TEXT] [--exclude GLOB]...
        [--fail-fast] [--quiet] [--trials N] [--min-pass-rate R]
                                       run many scenarios (default output: .agentchaos/suites)
  explore <scenario> [--menu FILE|extended] [--depth 1|2] [--budget N] [--jobs N]
          [--baseline-runs N] [--seed S] [--output-dir DIR] [--reporter LIST]
          [--trials N] [--min-pass-rate R]
                                       inject each fault into each call the agent makes
                                       (default output: .agentchaos/explore)
  record <scenario> [--dependency NAME]... [--force | --append] [--output-dir PATH]
         [--reporter LIST]             run the scenario against the live dependencies and
                                       write their replay cassettes (docs/replay.md)
  validate <scenario>                  check a scenario file (or a folder's scenario.yaml)
                                       without starting anything
  inspect <run-folder | report.json>   print the summary of a saved report
  report <run-folder | suite-folder> --format html|junit|ctrf|json [--output PATH]
                                       render a saved run or suite again
  merge <suite-folder>... --output-dir DIR
                                       merge shard outputs into one suite
  inspect --recover <run-folder> [--write]
                                       the verdict the events of an incomplete run support
                                       (--write: also save it as report.recovered.json)
  version                              print the version
  fake-llm [--port N] [--script FILE]  serve a deterministic fake model API (see fake-llm --help)
  mcp-shim --dependency NAME ...       internal: the MCP stdio shim a run hands to its workload

Options:
  --version                            print the version
  --help                               print this help

Reporters (--reporter, a comma list): junit, ctrf, html, json.
Trials (--trials N, 1 to 100): run each experiment N times in parallel under --jobs and
judge its pass rate; --min-pass-rate R (0 to 1, default 1) is the least that passes.
Exit codes: 0 passed or recovered, 1 failed, 2 invalid input or usage,
3 setup or internal error, 130 interrupted.
`;

/** One command: its arguments, what it needs when none is given, and its action (loaded lazily). */
interface Command extends ArgsSpec {
  readonly needs: string;
  readonly execute: (args: ParsedArgs, io: CliIo) => Promise<number>;
}

/** The single positional of a command that takes exactly one. */
function only(args: ParsedArgs): string {
  return args.positionals[0] as string;
}

/**
 * Loads a command that validates documents, after switching zod to its mode for one-shot
 * validation (validation-mode.ts): zod reads that setting when the schemas are built, which is
 * when the command's modules load.
 */
async function validating<T>(load: () => Promise<T>): Promise<T> {
  await import("./validation-mode.js");
  return load();
}

const OUTPUT_DIR = { type: "string", needs: "a path" } as const;
const REPORTER = { type: "string", needs: "a list of reporters" } as const;
const TRIALS = { type: "string", needs: "a number" } as const;
const MIN_PASS_RATE = { type: "string", needs: "a number from 0 to 1" } as const;

/** Every command but help and version. Adding a command is adding one entry. */
const COMMANDS: Readonly<Record<string, Command>> = {
  run: {
    needs: "a scenario file",
    options: {
      "output-dir": OUTPUT_DIR,
      reporter: REPORTER,
      trials: TRIALS,
      jobs: { type: "string", needs: "a number" },
      "min-pass-rate": MIN_PASS_RATE,
    },
    positionals: { min: 1, max: 1 },
    execute: async (args, io) => (await validating(() => import("./commands/run.js"))).runCommand(args, io),
  },
  record: {
    needs: "a scenario file",
    options: {
      "output-dir": OUTPUT_DIR,
      reporter: REPORTER,
      dependency: { type: "string", needs: "a dependency name", repeatable: true },
      force: { type: "boolean" },
      append: { type: "boolean" },
    },
    positionals: { min: 1, max: 1 },
    execute: async (args, io) => (await import("./commands/record.js")).recordCommand(args, io),
  },
  validate: {
    needs: "a scenario file",
    options: {},
    positionals: { min: 1, max: 1 },
    execute: async (args, io) =>
      (await validating(() => import("./commands/validate.js"))).validateCommand(only(args), io),
  },
  inspect: {
    needs: "a run folder or report.json",
    options: { recover: { type: "boolean" }, write: { type: "boolean" } },
    positionals: { min: 1, max: 1 },
    execute: async (args, io) => {
      if (args.values.recover === true) {
        const { recoverCommand } = await import("./commands/recover.js");
        return recoverCommand(only(args), args.values.write === true, io);
      }
      if (args.values.write === true) return usageError(io, "--write is only used with --recover");
      return (await import("./commands/inspect.js")).inspectCommand(only(args), io);
    },
  },
  suite: {
    needs: "a scenario file or folder",
    options: {
      jobs: { type: "string", needs: "a number" },
      shard: { type: "string", needs: "I/N" },
      "output-dir": OUTPUT_DIR,
      reporter: REPORTER,
      grep: { type: "string", needs: "a text" },
      "grep-invert": { type: "string", needs: "a text" },
      exclude: { type: "string", needs: "a glob", repeatable: true },
      "fail-fast": { type: "boolean" },
      quiet: { type: "boolean" },
      trials: TRIALS,
      "min-pass-rate": MIN_PASS_RATE,
    },
    positionals: { min: 1, max: Number.POSITIVE_INFINITY },
    execute: async (args, io) =>
      (await validating(() => import("./commands/suite.js"))).suiteCommand(args, io),
  },
  explore: {
    needs: "a scenario file",
    options: {
      menu: { type: "string", needs: "a menu file" },
      depth: { type: "string", needs: "1 or 2" },
      budget: { type: "string", needs: "a number" },
      jobs: { type: "string", needs: "a number" },
      "baseline-runs": { type: "string", needs: "a number" },
      seed: { type: "string", needs: "a number" },
      "output-dir": OUTPUT_DIR,
      reporter: REPORTER,
      trials: TRIALS,
      "min-pass-rate": MIN_PASS_RATE,
    },
    positionals: { min: 1, max: 1 },
    execute: async (args, io) =>
      (await validating(() => import("./commands/explore.js"))).exploreCommand(args, io),
  },
  report: {
    needs: "a run folder or suite folder",
    options: { format: { type: "string", needs: "html, junit, ctrf or json" }, output: OUTPUT_DIR },
    positionals: { min: 1, max: 1 },
    execute: async (args, io) => (await import("./commands/report.js")).reportCommand(args, io),
  },
  merge: {
    needs: "one or more suite folders",
    options: { "output-dir": OUTPUT_DIR },
    positionals: { min: 1, max: Number.POSITIVE_INFINITY },
    execute: async (args, io) => (await import("./commands/merge.js")).mergeCommand(args, io),
  },
};

/** The CLI core: takes argv (without node and script) and streams, returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(HELP);
    return EXIT.OK;
  }
  if (name === "--version" || name === "version") {
    if (rest.length > 0) return usageError(io, `unexpected argument '${rest[0]}'`);
    io.stdout.write(`agentchaos ${packageVersion()}\n`);
    return EXIT.OK;
  }
  const raw = rawCommand(name);
  if (raw !== undefined) return raw(rest, io);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) return usageError(io, `unknown command '${name}'`);
  if (asksForHelp(rest)) {
    io.stdout.write(HELP);
    return EXIT.OK;
  }
  const parsed = parseCommandArgs(rest, command);
  if ("kind" in parsed) {
    return usageError(io, parsed.kind === "missing" ? `'${name}' needs ${command.needs}` : parsed.text);
  }
  return command.execute(parsed, io);
}
