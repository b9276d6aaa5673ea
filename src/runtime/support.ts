import { isArmable } from "../faults/registry.js";
import { isMcpFault } from "../mcp/faults/registry.js";
import type { ScenarioV2 } from "../scenario/types-v2.js";

/**
 * What this build cannot run yet in a valid schema-2 scenario, as one line (or null when it
 * can run all of it). `run` refuses such a scenario before anything starts (exit 2).
 */
export function unsupportedFeature(scenario: ScenarioV2): string | null {
  for (const fault of scenario.faults) {
    if (!isArmable(fault) && !isMcpFault(fault))
      return `fault ${fault.id}: ${fault.type} is not supported by run in this version`;
  }
  return null;
}
