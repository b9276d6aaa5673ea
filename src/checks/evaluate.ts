import type { Timeline } from "../events/timeline.js";
import type { CheckName, ChecksConfig } from "../scenario/types-v2.js";
import { CHECK_NAMES, CHECKS } from "./registry.js";
import type { CheckDefinition, CheckOutcome, Finding } from "./types.js";

const REGISTRY: { readonly [N in CheckName]: CheckDefinition<N> } = CHECKS;

function evaluate<N extends CheckName>(
  name: N,
  timeline: Timeline,
  config: ChecksConfig[N],
): CheckOutcome | null {
  if (config.mode === "off") return null;
  const check: CheckDefinition<N> = REGISTRY[name];
  const findings = check.find(timeline, config);
  return {
    name,
    mode: config.mode,
    passed: findings.length === 0,
    findings,
    diagnostics: findings.map((finding) => check.describe(finding, config)),
  };
}

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

/** The checks that are not `off`, evaluated in registry order. `report` checks never decide the result. */
export function evaluateChecks(timeline: Timeline, config: ChecksConfig): CheckOutcome[] {
  return CHECK_NAMES.flatMap((name) => evaluate(name, timeline, config[name]) ?? []);
}

/** The reason code a check gives when it is enforced and has findings. */
export function checkReason(name: CheckName): string {
  return CHECKS[name].reason;
}
