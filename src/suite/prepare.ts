/**
 * Loading a suite's scenario files: a valid one becomes a runnable plan with its fixed ports,
 * an invalid or unreadable one a `SCENARIO_INVALID` plan with its problems (never fatal).
 */
import { basename, extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { fixedPorts } from "../runtime/fixed-ports.js";
import { ScenarioError } from "../scenario/errors.js";
import { SCENARIO_LIMITS } from "../scenario/limits.js";
import { parseScenario, scenarioReadError } from "../scenario/load.js";
import type { AnyScenario } from "../scenario/parse.js";
import { readRegularFile } from "../support/regular-file.js";
import type { ScenarioFile } from "./collect.js";

export type Plan =
  | {
      readonly kind: "runnable";
      readonly file: ScenarioFile;
      readonly name: string;
      readonly ports: readonly number[];
      readonly scenario: AnyScenario;
    }
  | {
      readonly kind: "invalid";
      readonly file: ScenarioFile;
      readonly name: string;
      readonly problems: string[];
    };

/** The problems of a scenario error, one line each (no excerpts: they may quote the file). */
export function problemLines(error: ScenarioError): string[] {
  if (error.problems.length === 0) return [error.detail];
  return error.problems.map(
    (problem) => `${problem.path} (line ${problem.line}, column ${problem.column}): ${problem.message}`,
  );
}

/** The scenario's parsed data, or null when the text is not one YAML document. */
function looseData(bytes: Uint8Array): unknown {
  try {
    return parseYaml(new TextDecoder("utf-8", { fatal: true }).decode(bytes), { logLevel: "silent" });
  } catch {
    return null;
  }
}

function nameIn(data: unknown, file: ScenarioFile): string {
  const name = typeof data === "object" && data !== null ? (data as Record<string, unknown>).name : undefined;
  if (typeof name === "string" && name !== "") return name;
  return basename(file.path, extname(file.path));
}

export async function preparePlan(file: ScenarioFile): Promise<Plan> {
  let bytes: Uint8Array;
  try {
    bytes = await readRegularFile(file.absolutePath, SCENARIO_LIMITS.maxBytes);
  } catch (error) {
    const problems = problemLines(scenarioReadError(error));
    return { kind: "invalid", file, name: nameIn(null, file), problems };
  }
  const data = looseData(bytes);
  try {
    const scenario = parseScenario(bytes, file.absolutePath);
    return { kind: "runnable", file, name: scenario.name, ports: fixedPorts(data), scenario };
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    return { kind: "invalid", file, name: nameIn(data, file), problems: problemLines(error) };
  }
}
