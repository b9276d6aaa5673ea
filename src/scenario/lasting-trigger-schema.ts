/** The schema-2 triggers that last (docs/triggers.md, "Outages and quotas"): `outage` and `quota`. */
import * as z from "zod";
import { expecting, integer, mapping, positiveInteger } from "./fields.js";
import type { OutageTrigger, QuotaTrigger } from "./types.js";

const NON_NEGATIVE = "an integer of at least 0";

export const outageSchema = mapping(
  { start_ms: integer(NON_NEGATIVE, 0n), duration_ms: positiveInteger },
  "trigger.outage",
).transform(
  (outage): OutageTrigger => ({ kind: "outage", startMs: outage.start_ms, durationMs: outage.duration_ms }),
);

export const quotaSchema = mapping(
  { requests: positiveInteger.optional(), tokens: positiveInteger.optional(), per_ms: positiveInteger },
  "trigger.quota",
)
  .superRefine(
    (quota, ctx) => {
      const { requests, tokens } = quota as Record<string, unknown>;
      if ((requests === undefined) === (tokens === undefined)) {
        const found = requests === undefined ? "none" : "requests and tokens";
        ctx.addIssue({
          code: "custom",
          input: quota,
          message: `expected exactly one of requests and tokens, got ${found}`,
        });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .transform(
    (quota): QuotaTrigger =>
      quota.tokens === undefined
        ? { kind: "quota", unit: "requests", limit: quota.requests as number, perMs: quota.per_ms }
        : { kind: "quota", unit: "tokens", limit: quota.tokens, perMs: quota.per_ms },
  );

/** The keys a schema-2 trigger adds to schema 1's. */
export const LASTING_TRIGGER_KEYS = { outage: outageSchema.optional(), quota: quotaSchema.optional() };

/** `retry_after_seconds: auto` is for an `http_rate_limit` under a quota only: the problem, or null. */
export function retryAfterAutoProblem(type: string, raw: Readonly<Record<string, unknown>>): string | null {
  if (type !== "http_rate_limit" || raw.retry_after_seconds !== "auto") return null;
  const trigger = raw.trigger;
  const quota = typeof trigger === "object" && trigger !== null && "quota" in trigger;
  return quota ? null : 'expected an integer of at least 0 ("auto" needs a quota trigger)';
}

/** `http_rate_limit.retry_after_seconds` in schema 2: an integer of at least 0, or `auto` (checked against the trigger above). */
export const retryAfterSecondsOrAuto = z.union([integer(NON_NEGATIVE, 0n), z.literal("auto")], {
  error: expecting('an integer of at least 0 or "auto"'),
});
