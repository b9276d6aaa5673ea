/**
 * What the library's functions accept as a scenario (docs/library.md): a file's path (relative
 * to the process's working directory), a scenario returned by `loadScenario`, or a scenario
 * written as a plain object in the file format (`schema_version`, `name`, ... as in YAML),
 * validated exactly as a file in the working directory would be.
 */
import { join } from "node:path";
import { stringify } from "yaml";
import { ScenarioError } from "../scenario/errors.js";
import type { LegacyScenario } from "../scenario/legacy/types.js";
import { toRunScenario } from "../scenario/legacy/upgrade.js";
import { loadScenario, parseScenario } from "../scenario/load.js";
import type { AnyScenario } from "../scenario/parse.js";

/** A scenario in the file format, as an object (what a YAML file holds). */
export type ScenarioDocument = { readonly schema_version: number } & Readonly<Record<string, unknown>>;

export type ScenarioInput = string | AnyScenario | LegacyScenario | ScenarioDocument;

function isDocument(input: object): input is ScenarioDocument {
  return Object.hasOwn(input, "schema_version");
}

/** The internal model of a library caller's scenario; throws `ScenarioError` when it is invalid. */
export async function scenarioOf(input: ScenarioInput): Promise<AnyScenario> {
  if (typeof input === "string") return loadScenario(input);
  if (!isDocument(input)) return toRunScenario(input);
  let json: string;
  try {
    json = JSON.stringify(input);
  } catch {
    throw new ScenarioError("SCENARIO_INVALID", "the scenario object cannot be written as JSON", {
      problems: [],
    });
  }
  // Written as YAML, the object is read by the same rules, positions and messages as a file, and
  // that text is the run folder's scenario.yaml.
  const text = stringify(JSON.parse(json));
  const scenario = parseScenario(new TextEncoder().encode(text), join(process.cwd(), "scenario.yaml"));
  return { ...scenario, sourceText: text };
}
