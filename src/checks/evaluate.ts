import type { CheckName, ChecksConfig } from "../scenario/types-v2.js";
import { CHECKS } from "./registry.js";
import type { CheckDefinition, CheckOutcome, Finding } from "./types.js";

const REGISTRY: { readonly [N in CheckName]: CheckDefinition<N> } = CHECKS;

/** A check's outcome from its findings; null when the check is `off`. */
export function checkOutcome(
  name: CheckName,
  config: ChecksConfig,
  findings: readonly Finding[],
): CheckOutcome | null {
  const own = config[name];
  if (own.mode === "off") return null;
  const check = REGISTRY[name] as CheckDefinition<CheckName>;
  return {
    name,
    mode: own.mode,
    passed: findings.length === 0,
    findings,
    diagnostics: findings.map((finding) => check.describe(finding as never, own as never)),
  };
}

/** The reason code a check gives when it is enforced and has findings. */
export function checkReason(name: CheckName): string {
  return CHECKS[name].reason;
}
