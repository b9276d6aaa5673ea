/**
 * Canary values of corruption faults (docs/faults.md, corruption faults): derived from the run id
 * and the fault id, so a run's canaries are reproducible from its folder name and scenario, and
 * differ between runs. Never written to any artifact: events carry only the canary's JSON type.
 */
import { createHash } from "node:crypto";

import type { CanaryType } from "../../events/addition-types.js";

/** The JSON type of the value a canary replaced (and of the canary itself). */
export type { CanaryType };

export interface CanaryValues {
  /** `ac-canary-<8 lowercase hex>`, replacing a string. */
  readonly text: string;
  /** From 100000 to 999999, replacing a number. */
  readonly integer: number;
}

const INTEGER_MIN = 100_000;
const INTEGER_SPAN = 900_000;

export function canaryValues(runId: string, faultId: string): CanaryValues {
  const digest = createHash("sha256").update(`agentchaos-canary\u0000${runId}\u0000${faultId}`).digest();
  return {
    text: `ac-canary-${digest.subarray(0, 4).toString("hex")}`,
    integer: INTEGER_MIN + (digest.readUInt32BE(4) % INTEGER_SPAN),
  };
}

/** `604217` → `604,217`; `1234567` would be `1,234,567` (canaries have six digits). */
export function withThousandsSeparators(integer: number): string {
  return String(integer).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * The literals whose appearance in a sink means the canary arrived there: the string itself, or
 * the integer as written plain and with thousands separators. A flipped boolean has none: `true`
 * and `false` are everywhere.
 */
export function canaryLiterals(type: CanaryType, values: CanaryValues): string[] {
  if (type === "string") return [values.text];
  if (type === "number") return [String(values.integer), withThousandsSeparators(values.integer)];
  return [];
}
