import type { Timeline } from "../analysis/v2/timeline.js";
import type { CheckName, ChecksConfig } from "../scenario/types-v2.js";
import { CHECK_NAMES, CHECKS } from "./registry.js";
import type { CheckDefinition, CheckOutcome } from "./types.js";

const REGISTRY: { readonly [N in CheckName]: CheckDefinition<N> } = CHECKS;

function evaluate<N extends CheckName>(
  name: N,
  timeline: Timeline,
  config: ChecksConfig[N],
  workloadRan: boolean,
): CheckOutcome | null {
  if (config.mode === "off") return null;
  if (!workloadRan) return notEvaluated(name, config.mode);
  const check: CheckDefinition<N> = REGISTRY[name];
  const findings = check.find(timeline, config);
  return {
    name,
    mode: config.mode,
    passed: findings.length === 0,
    findings,
    diagnostics: findings.map((finding) => check.describe(finding, config, timeline.label)),
  };
}

/**
 * A check of a run whose workload never ran (a dependency or the workload could not be
 * started): nothing was checked, so it neither passed nor failed.
 */
export function notEvaluated(name: CheckName, mode: CheckOutcome["mode"]): CheckOutcome {
  return { name, mode, passed: null, findings: [], diagnostics: [] };
}

/**
 * The checks that are not `off`, evaluated in registry order (not evaluated when the workload
 * never ran). `report` checks never decide the result.
 */
export function evaluateChecks(timeline: Timeline, config: ChecksConfig, workloadRan = true): CheckOutcome[] {
  return CHECK_NAMES.flatMap((name) => evaluate(name, timeline, config[name], workloadRan) ?? []);
}

/** The reason code a check gives when it is enforced and has findings. */
export function checkReason(name: CheckName): string {
  return CHECKS[name].reason;
}
