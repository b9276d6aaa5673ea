/**
 * Whether a YAML file found in a folder is a scenario (see docs/suites.md): its top level is a
 * mapping with a `schema_version` key. A fake model's script, a CI file or any other YAML kept
 * beside the scenarios is skipped. A file that is not valid YAML still counts as a scenario when
 * a line starts with `schema_version:` (a scenario with a typo is reported as invalid, never
 * skipped in silence). A file that cannot be read, or is larger than a scenario may be, counts
 * as a scenario too: loading it then says what is wrong with it.
 */

import { isMap, parseDocument } from "yaml";
import { SCENARIO_LIMITS } from "../scenario/limits.js";
import { readRegularFile } from "../support/regular-file.js";

const SCHEMA_VERSION_LINE = /^schema_version[ \t]*:/m;

/** True when the YAML text's top level is a mapping with a `schema_version` key. */
export function looksLikeScenario(text: string): boolean {
  // Only the top level's keys are looked at: aliases are never expanded.
  const document = parseDocument(text, { logLevel: "silent" });
  if (isMap(document.contents) && document.contents.has("schema_version")) return true;
  if (document.errors.length === 0) return false;
  return SCHEMA_VERSION_LINE.test(text);
}

/** Reads the file (bounded) and tells whether a suite should run it as a scenario. */
export async function isScenarioFile(path: string): Promise<boolean> {
  try {
    const bytes = await readRegularFile(path, SCENARIO_LIMITS.maxBytes);
    return looksLikeScenario(new TextDecoder("utf-8").decode(bytes));
  } catch {
    return true;
  }
}
