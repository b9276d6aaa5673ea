import * as z from "zod";
import { expecting, integer, mapping, positiveInteger } from "../fields.js";
import type { CheckMode, ChecksConfig } from "../types-v2.js";

const MODE = '"off", "report" or "enforce"';
const mode = z.enum(["off", "report", "enforce"], { error: expecting(MODE) });

/** The defaults of docs/checks.md: ignoring an explicit Retry-After is a defect, the rest is reported. */
export const DEFAULT_CHECKS: ChecksConfig = {
  retry_after: { mode: "enforce" },
  retry_storm: { mode: "report", maxAttempts: 5, minGapMs: 100 },
  duplicate_writes: { mode: "report" },
};

/** A check's value: a mode, or a mapping with `mode` and the check's parameters. */
function checkValue<Shape extends z.ZodRawShape>(name: string, params: Shape) {
  return z.union([mode, mapping({ mode: mode.optional(), ...params }, `checks.${name}`)], {
    error: expecting(
      `${MODE}, or a mapping with mode${Object.keys(params).length > 0 ? ` and ${Object.keys(params).join(", ")}` : ""}`,
    ),
  });
}

/** `checks`: optional mapping; each check off, report or enforce (docs/checks.md). */
export const checksSchema = mapping(
  {
    retry_after: checkValue("retry_after", {}).optional(),
    retry_storm: checkValue("retry_storm", {
      max_attempts: positiveInteger.optional(),
      min_gap_ms: integer("an integer of at least 0", 0n).optional(),
    }).optional(),
    duplicate_writes: checkValue("duplicate_writes", {}).optional(),
  },
  "checks",
)
  .nullable()
  .optional()
  .transform((checks): ChecksConfig => {
    const modeOf = (value: unknown, fallback: CheckMode): CheckMode =>
      typeof value === "string"
        ? (value as CheckMode)
        : ((value as { mode?: CheckMode } | undefined)?.mode ?? fallback);
    const storm = typeof checks?.retry_storm === "object" ? checks.retry_storm : undefined;
    return {
      retry_after: { mode: modeOf(checks?.retry_after, DEFAULT_CHECKS.retry_after.mode) },
      retry_storm: {
        mode: modeOf(checks?.retry_storm, DEFAULT_CHECKS.retry_storm.mode),
        maxAttempts: storm?.max_attempts ?? DEFAULT_CHECKS.retry_storm.maxAttempts,
        minGapMs: storm?.min_gap_ms ?? DEFAULT_CHECKS.retry_storm.minGapMs,
      },
      duplicate_writes: { mode: modeOf(checks?.duplicate_writes, DEFAULT_CHECKS.duplicate_writes.mode) },
    };
  });
