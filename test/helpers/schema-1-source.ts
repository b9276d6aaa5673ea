import type { LegacyScenario } from "../../src/scenario/legacy/types.js";
import type { AnyScenario } from "../../src/scenario/parse.js";

/** The schema-1 scenario a loaded schema-1 file was upgraded from (its file format keeps it). */
export function schema1Source(scenario: AnyScenario): LegacyScenario {
  if (scenario.legacy === undefined) throw new Error("expected a schema-1 scenario");
  return scenario.legacy.source;
}
