import { resolve } from "node:path";
import { ExploreError } from "../../explore/errors.js";
import { explore } from "../../explore/run-explore.js";
import { MAX_SEED } from "../../explore/sample.js";
import { exploreTerminal } from "../../explore/terminal.js";
import { DEFAULT_SUITE_REPORTERS } from "../../reporters/names.js";
import { formatScenarioError, ScenarioError } from "../../scenario/errors.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { OutputWriteError } from "../../support/write-file.js";
import type { ParsedArgs } from "../args.js";
import { runManyFlags } from "../option-values.js";
import { engineSignals, loadScenarioOrExit } from "../scenario-input.js";
import { usageError } from "../usage.js";

/** A whole number in [min, max] written in decimal digits, or null. */
function whole(text: string, min: number, max: number): number | null {
  if (!/^[0-9]{1,16}$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : null;
}

interface Numbers {
  depth?: 1 | 2;
  budget?: number;
  jobs?: number;
  baselineRuns?: number;
  seed?: number;
}

/** The numeric options, or a one-line usage problem. */
function numbers(values: ParsedArgs["values"]): Numbers | string {
  const out: Numbers = {};
  const text = (name: string): string | undefined =>
    typeof values[name] === "string" ? values[name] : undefined;
  const depth = text("depth");
  if (depth !== undefined) {
    if (depth !== "1" && depth !== "2") return `--depth needs 1 or 2, got '${depth}'`;
    out.depth = depth === "1" ? 1 : 2;
  }
  const checks: [string, keyof Omit<Numbers, "depth">, number, number, string][] = [
    ["budget", "budget", 1, Number.MAX_SAFE_INTEGER, "a positive integer"],
    ["jobs", "jobs", 1, 9999, "a positive integer"],
    ["baseline-runs", "baselineRuns", 1, 20, "an integer from 1 to 20"],
    ["seed", "seed", 0, MAX_SEED, `an integer from 0 to ${MAX_SEED}`],
  ];
  for (const [option, key, min, max, expected] of checks) {
    const raw = text(option);
    if (raw === undefined) continue;
    const value = whole(raw, min, max);
    if (value === null) return `--${option} needs ${expected}, got '${raw}'`;
    out[key] = value;
  }
  return out;
}

function menuProblem(error: ExploreError, menuPath: string): string {
  if (error.code === "MENU_NOT_FOUND") return `Invalid menu: file not found: ${menuPath}\n`;
  if (error.problems.length === 0) return `Invalid menu: ${menuPath}: ${error.message}\n`;
  const asScenario = new ScenarioError("SCENARIO_INVALID", error.message, { problems: error.problems });
  return `Invalid menu: ${formatScenarioError(asScenario, menuPath)}\n`;
}

/** `agentchaos explore <scenario> [options]`: a shell over the explore engine. */
export async function exploreCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const path = args.positionals[0] as string;
  const { values } = args;
  const parsed = numbers(values);
  if (typeof parsed === "string") return usageError(io, parsed);
  const flags = runManyFlags(values, DEFAULT_SUITE_REPORTERS, false);
  if (typeof flags === "string") return usageError(io, flags);
  const menu = typeof values.menu === "string" ? values.menu : undefined;

  const scenario = await loadScenarioOrExit(io, resolve(io.cwd, path), path);
  if (typeof scenario === "number") return scenario;

  const terminal = exploreTerminal({ stream: io.stdout, env: io.env }, io.cwd);
  const started = Date.now();
  try {
    const done = await explore(scenario, {
      cwd: io.cwd,
      ...parsed,
      ...flags,
      ...(menu === undefined ? {} : { menu }),
      ...(typeof values["output-dir"] === "string" ? { outputDir: values["output-dir"] } : {}),
      ...engineSignals(io),
      onProgress: terminal.progress,
    });
    terminal.finish(done, Date.now() - started);
    return done.exitCode;
  } catch (error) {
    if (error instanceof ExploreError) {
      if (error.code.startsWith("MENU_")) io.stderr.write(menuProblem(error, menu ?? ""));
      else io.stderr.write(`Cannot explore: ${path}: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof OutputWriteError) {
      io.stderr.write(`Cannot write explore reports: ${error.message}\n`);
      return EXIT.SETUP;
    }
    throw error;
  }
}
