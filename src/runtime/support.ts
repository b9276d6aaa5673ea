import { isArmable } from "../faults/registry.js";
import { isMcpFault } from "../mcp/faults/registry.js";
import type { FaultV2, ScenarioV2 } from "../scenario/types-v2.js";

/**
 * What this build cannot run yet in a valid schema-2 scenario, as one line (or null when it
 * can run all of it). `run` refuses such a scenario before anything starts (exit 2).
 */
export function unsupportedFeature(scenario: ScenarioV2): string | null {
  const supported = (fault: FaultV2): boolean => isArmable(fault) || isMcpFault(fault);
  const fault = scenario.faults.find((each) => !supported(each));
  if (fault !== undefined) return `fault ${fault.id}: ${fault.type} is not supported by run in this version`;
  return null;
}
