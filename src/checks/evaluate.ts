import type { CheckName, ChecksConfig } from "../scenario/types.js";
import { CHECKS } from "./registry.js";
import type { CheckDefinition, CheckOutcome, Finding } from "./types.js";

const REGISTRY: { readonly [N in CheckName]: CheckDefinition<N> } = CHECKS;

/**
 * A check of a run whose workload never ran (a dependency or the workload could not be
 * started): nothing was checked, so it neither passed nor failed.
 */
export function notEvaluated(name: CheckName, mode: CheckOutcome["mode"]): CheckOutcome {
  return { name, mode, passed: null, findings: [], diagnostics: [] };
}

/**
 * A check's outcome from its findings, naming operations by `label`; null when the check is
 * `off`, not evaluated when the workload never ran.
 */
export function checkOutcome(
  name: CheckName,
  config: ChecksConfig,
  findings: readonly Finding[],
  label: (operationId: string) => string,
  workloadRan: boolean,
): CheckOutcome | null {
  const own = config[name];
  if (own.mode === "off") return null;
  if (!workloadRan) return notEvaluated(name, own.mode);
  const check = REGISTRY[name] as CheckDefinition<CheckName>;
  return {
    name,
    mode: own.mode,
    passed: findings.length === 0,
    findings,
    diagnostics: findings.map((finding) => check.describe(finding as never, own as never, label)),
  };
}

/** The reason code a check gives when it is enforced and has findings. */
export function checkReason(name: CheckName): string {
  return CHECKS[name].reason;
}
