import { resolve } from "node:path";
import { readRegularFile } from "../support/bounded-read.js";
import { ScenarioError } from "./errors.js";
import { SCENARIO_LIMITS } from "./limits.js";
import { type AnyScenario, parseScenario, tooLarge } from "./parse.js";

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
  const read = await readRegularFile(absolutePath, SCENARIO_LIMITS.maxBytes).catch((error: unknown) => {
    throw readFailure(error);
  });
  if (read.kind === "folder")
    throw new ScenarioError("SCENARIO_UNREADABLE", "is a folder, not a scenario file");
  if (read.kind === "not-regular") throw new ScenarioError("SCENARIO_UNREADABLE", "is not a regular file");
  if (read.kind === "too-large") throw tooLarge();
  return parseScenario(read.bytes, absolutePath);
}
