/**
 * Whether a schema-2 scenario uses one of the additions (replay, verify, corruption faults, the
 * lifecycle checks and MCP session faults, model faults, outage and quota triggers). Such a run
 * writes events schema 3 and report schema 5; every other run writes what it always wrote
 * (docs/events.md "Versions").
 */
import type { LegacyParts } from "./legacy/upgrade.js";
import type { Scenario } from "./types.js";

/** Fault types that exist only in the additions. */
export const ADDITION_FAULT_TYPES: readonly string[] = [
  "http_corrupt",
  "mcp_corrupt_result",
  "mcp_malformed",
  "mcp_oversized",
  "mcp_tools_changed",
  "llm_misbehave",
  "http_auth_expired",
];
const ADDITION_FAULT_TYPE_SET: ReadonlySet<string> = new Set(ADDITION_FAULT_TYPES);

/** Trigger kinds that exist only in the additions. */
const ADDITION_TRIGGER_KINDS: ReadonlySet<string> = new Set(["outage", "quota"]);

/** Checks that exist only in the additions (off unless a scenario lists them). */
const ADDITION_CHECKS: readonly string[] = ["fail_fast", "cancellation"];

/** A key an addition adds to a scenario object; absent, null or "off" means unused. */
function present(holder: object, key: string): boolean {
  const value = (holder as Record<string, unknown>)[key];
  if (value === undefined || value === null) return false;
  return !(typeof value === "object" && (value as { mode?: unknown }).mode === "off");
}

export function usesAdditions(scenario: Scenario): boolean {
  return (
    present(scenario, "verify") ||
    scenario.dependencies.some((dependency) => present(dependency, "replay")) ||
    scenario.faults.some(
      (fault) => ADDITION_FAULT_TYPE_SET.has(fault.type) || ADDITION_TRIGGER_KINDS.has(fault.trigger.kind),
    ) ||
    ADDITION_CHECKS.some((name) => present(scenario.checks, name))
  );
}

/**
 * The events schema a run of this scenario writes: 1 for a schema-1 file (upgraded or not), 2,
 * or 3 with the additions.
 */
export function eventsSchemaOf(
  scenario: { readonly schemaVersion: 1 } | (Scenario & { readonly legacy?: LegacyParts }),
): 1 | 2 | 3 {
  if (scenario.schemaVersion === 1 || scenario.legacy !== undefined) return 1;
  return usesAdditions(scenario) ? 3 : 2;
}
