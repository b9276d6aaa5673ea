import { resolve } from "node:path";
import { FileReadError, readRegularFile } from "../support/regular-file.js";
import { ScenarioError } from "./errors.js";
import { SCENARIO_LIMITS } from "./limits.js";
import { type AnyScenario, parseScenario, tooLarge } from "./parse.js";

export { parseScenario };

/** The `ScenarioError` of a scenario file that cannot be read. */
export function scenarioReadError(error: unknown): ScenarioError {
  if (!(error instanceof FileReadError)) throw error;
  switch (error.code) {
    case "FILE_NOT_FOUND":
      return new ScenarioError("SCENARIO_NOT_FOUND", "file not found", { cause: error });
    case "FILE_TOO_LARGE":
      return tooLarge();
    case "FILE_NOT_REGULAR":
      return new ScenarioError(
        "SCENARIO_UNREADABLE",
        error.kind === "folder"
          ? "is a folder, not a scenario file"
          : `is not a regular file (a ${error.kind})`,
      );
    default:
      return new ScenarioError(
        "SCENARIO_UNREADABLE",
        error.errno === "EACCES" || error.errno === "EPERM"
          ? "cannot read the file: permission denied"
          : `cannot read the file (${error.errno ?? "error"})`,
        { cause: error },
      );
  }
}

/** Reads and validates a scenario file; `sourcePath` of the result is its absolute path. */
export async function loadScenario(path: string): Promise<AnyScenario> {
  const absolutePath = resolve(path);
  const bytes = await readRegularFile(absolutePath, SCENARIO_LIMITS.maxBytes).catch((error: unknown) => {
    throw scenarioReadError(error);
  });
  return parseScenario(bytes, absolutePath);
}
