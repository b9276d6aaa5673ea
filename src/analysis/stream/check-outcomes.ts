/** A check's outcome from its findings, as `evaluateChecks` builds it (checks/evaluate.ts). */
import { notEvaluated } from "../../checks/evaluate.js";
import { CHECKS } from "../../checks/registry.js";
import type { CheckDefinition, CheckOutcome, Finding } from "../../checks/types.js";
import type { CheckName, ChecksConfig } from "../../scenario/types-v2.js";

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
  const check = CHECKS[name] as CheckDefinition<CheckName>;
  return {
    name,
    mode: own.mode,
    passed: findings.length === 0,
    findings,
    diagnostics: findings.map((finding) => check.describe(finding as never, own as never, label)),
  };
}
