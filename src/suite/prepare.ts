/**
 * Loading a suite's scenario files: a valid one becomes a runnable plan with its fixed ports,
 * an invalid or unreadable one a `SCENARIO_INVALID` plan with its problems (never fatal).
 */
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { ScenarioError } from "../scenario/errors.js";
import { parseScenario } from "../scenario/load.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { ScenarioFile } from "./collect.js";
import { fixedPorts } from "./ports.js";

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

function errnoCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : "error";
}

function readProblem(error: unknown): string {
  const code = errnoCode(error);
  if (code === "EACCES" || code === "EPERM") return "cannot read the file: permission denied";
  if (code === "EISDIR") return "is a folder, not a scenario file";
  if (code === "ENOENT") return "file not found";
  return `cannot read the file (${code})`;
}

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
    bytes = await readFile(file.absolutePath);
  } catch (error) {
    return { kind: "invalid", file, name: nameIn(null, file), problems: [readProblem(error)] };
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
