import type { AnyScenario } from "../../src/scenario/parse.js";
import type { Scenario } from "../../src/scenario/types.js";

/** The schema-1 scenario a loaded schema-1 file was upgraded from (its file format keeps it). */
export function schema1Source(scenario: AnyScenario): Scenario {
  if (scenario.legacy === undefined) throw new Error("expected a schema-1 scenario");
  return scenario.legacy.source;
}
