import { isArmable } from "../faults/registry.js";
import { isMcpFault } from "../mcp/faults/registry.js";
import type { Fault, Scenario } from "../scenario/types.js";

/**
 * What this build cannot run yet in a valid schema-2 scenario, as one line (or null when it
 * can run all of it). `run` refuses such a scenario before anything starts (exit 2).
 */
export function unsupportedFeature(scenario: Scenario): string | null {
  const supported = (fault: Fault): boolean => isArmable(fault) || isMcpFault(fault);
  const fault = scenario.faults.find((each) => !supported(each));
  if (fault !== undefined) return `fault ${fault.id}: ${fault.type} is not supported by run in this version`;
  return null;
}
