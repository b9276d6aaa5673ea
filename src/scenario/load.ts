import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { ScenarioError } from "./errors.js";
import { type AnyScenario, parseScenario } from "./parse.js";

export { parseScenario };

function errnoCode(error: unknown): string {
  const code = error instanceof Error ? Reflect.get(error, "code") : undefined;
  return typeof code === "string" ? code : "unknown error";
}

function readFailure(error: unknown): ScenarioError {
  const code = errnoCode(error);
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new ScenarioError("SCENARIO_NOT_FOUND", "file not found", { cause: error });
  }
  if (code === "EACCES" || code === "EPERM") {
    return new ScenarioError("SCENARIO_UNREADABLE", "cannot read the file: permission denied", {
      cause: error,
    });
  }
  if (code === "EISDIR") {
    return new ScenarioError("SCENARIO_UNREADABLE", "is a folder, not a scenario file", { cause: error });
  }
  return new ScenarioError("SCENARIO_UNREADABLE", `cannot read the file (${code})`, { cause: error });
}

/** Reads and validates a scenario file; `sourcePath` of the result is its absolute path. */
export async function loadScenario(path: string): Promise<AnyScenario> {
  const absolutePath = resolve(path);
  const info = await stat(absolutePath).catch((error: unknown) => {
    throw readFailure(error);
  });
  if (info.isDirectory()) throw new ScenarioError("SCENARIO_UNREADABLE", "is a folder, not a scenario file");
  if (!info.isFile()) throw new ScenarioError("SCENARIO_UNREADABLE", "is not a regular file");
  const bytes = await readFile(absolutePath).catch((error: unknown) => {
    throw readFailure(error);
  });
  return parseScenario(bytes, absolutePath);
}
