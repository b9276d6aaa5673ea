import * as z from "zod";
import { bigintInRange, describe, expecting, mapping, positiveInteger } from "./fields.js";
import { LASTING_TRIGGER_KEYS } from "./lasting-trigger-schema.js";
import type { OccurrenceTrigger, OutageTrigger, QuotaTrigger, Trigger } from "./types.js";
import { decimalPlaces, parseWrittenDecimal, toMillionths } from "./written-decimal.js";

/** Reads the number exactly as written at a key path (an unquoted scalar), or null. */
export type WrittenNumberAt = (path: readonly PropertyKey[]) => string | null;

const PROBABILITY_PATH = ["fault", "trigger", "probability"] as const;
const PROBABILITY = "an unquoted number greater than 0 and at most 1, with at most six decimal places";
const ONE_MILLION = 1_000_000n;

const OCCURRENCE = "a positive integer";
const isOccurrence = (value: unknown): value is bigint =>
  typeof value === "bigint" && value >= 1n && value <= BigInt(Number.MAX_SAFE_INTEGER);

/** `occurrences`: items stay BigInts until the order check, so invalid items never take part in it. */
const occurrenceList = z
  .array(bigintInRange(OCCURRENCE, 1n), {
    error: expecting("a non-empty list of strictly increasing positive integers"),
  })
  .superRefine(
    (list, ctx) => {
      if (!Array.isArray(list)) return;
      if (list.length === 0) {
        ctx.addIssue({
          code: "custom",
          input: list,
          message: "expected at least one occurrence, got an empty list",
        });
      }
      for (let i = 1; i < list.length; i++) {
        const previous: unknown = list[i - 1];
        const current: unknown = list[i];
        if (isOccurrence(previous) && isOccurrence(current) && current <= previous) {
          ctx.addIssue({
            code: "custom",
            path: [i],
            input: current,
            message: `expected an integer greater than ${previous} (occurrences are strictly increasing), got ${current}`,
          });
        }
      }
    },
    { when: () => true },
  )
  .transform((list) => list.map(Number));

const windowSchema = mapping(
  { start_occurrence: positiveInteger, end_occurrence: positiveInteger },
  "trigger.window",
).superRefine(
  (window, ctx) => {
    const { start_occurrence: start, end_occurrence: end } = window as Record<string, unknown>;
    if (typeof start === "number" && typeof end === "number" && end < start) {
      ctx.addIssue({
        code: "custom",
        path: ["end_occurrence"],
        input: end,
        message: `expected an integer at least start_occurrence (${start}), got ${end}`,
      });
    }
  },
  { when: (payload) => typeof payload.value === "object" && payload.value !== null },
);

/** `seed`: kept as a BigInt, exact up to 2^64 - 1. */
const SEED = "an integer from 0 to 18446744073709551615";
const seed = z
  .bigint({ error: expecting(SEED) })
  .refine((value) => value >= 0n && value < 2n ** 64n, { error: expecting(SEED) });

/** `probability`: judged on the digits as written, so `0.1234567` fails even though a float would round. */
function probabilitySchema(writtenNumberAt: WrittenNumberAt, probabilityPath: readonly PropertyKey[]) {
  const error = expecting(PROBABILITY);
  return z.union([z.bigint(), z.number()], { error }).transform((value, ctx) => {
    let millionths: bigint;
    if (typeof value === "bigint") {
      millionths = value * ONE_MILLION;
    } else {
      const written = writtenNumberAt(probabilityPath);
      const decimal = written === null ? null : parseWrittenDecimal(written);
      if (decimal === null || decimalPlaces(decimal) > 6) {
        const found = decimal === null ? describe(value) : `${decimalPlaces(decimal)} decimal places`;
        ctx.issues.push({ code: "custom", input: value, message: `expected ${PROBABILITY}, got ${found}` });
        return z.NEVER;
      }
      millionths = toMillionths(decimal);
    }
    if (millionths <= 0n || millionths > ONE_MILLION) {
      ctx.issues.push({ code: "custom", input: value, message: error({ input: value }) });
      return z.NEVER;
    }
    return { probability: Number(value), probabilityMillionths: Number(millionths) };
  });
}

const PROBABILITY_FORM = {
  probability: PROBABILITY,
  seed: SEED,
  window: "a mapping with start_occurrence and end_occurrence",
};
const FORMS = "exactly one of occurrence, occurrences, or probability with seed and window";
const LASTING_FORMS =
  "exactly one of occurrence, occurrences, probability with seed and window, outage or quota";

/**
 * `fault.trigger`: exactly one of the three forms of docs/triggers.md; with `lasting` (schema 2)
 * also `outage` or `quota`.
 */
export function legacyTriggerSchema(
  writtenNumberAt: WrittenNumberAt,
  probabilityPath: readonly PropertyKey[] = PROBABILITY_PATH,
): z.ZodType<OccurrenceTrigger, unknown> {
  // Without `lasting` the outage and quota forms are not accepted: the output is schema 1's.
  return anyTriggerSchema(writtenNumberAt, probabilityPath, false) as z.ZodType<OccurrenceTrigger, unknown>;
}

/** `fault.trigger` of a schema-2 fault: schema 1's forms, an outage or a quota. */
export function triggerSchema(writtenNumberAt: WrittenNumberAt, probabilityPath: readonly PropertyKey[]) {
  return anyTriggerSchema(writtenNumberAt, probabilityPath, true);
}

function anyTriggerSchema(
  writtenNumberAt: WrittenNumberAt,
  probabilityPath: readonly PropertyKey[],
  lasting: boolean,
) {
  const forms = lasting ? LASTING_FORMS : FORMS;
  return mapping(
    {
      occurrence: positiveInteger.optional(),
      occurrences: occurrenceList.optional(),
      probability: probabilitySchema(writtenNumberAt, probabilityPath).optional(),
      seed: seed.optional(),
      window: windowSchema.optional(),
      ...(lasting ? LASTING_TRIGGER_KEYS : {}),
    },
    "trigger",
  )
    .superRefine(
      (trigger, ctx) => {
        const has = (key: string): boolean => (trigger as Record<string, unknown>)[key] !== undefined;
        const probabilityKeys = ["probability", "seed", "window"].filter(has);
        const found = [
          ...(has("occurrence") ? ["occurrence"] : []),
          ...(has("occurrences") ? ["occurrences"] : []),
          ...(probabilityKeys.length > 0 ? [probabilityKeys.join("/")] : []),
          ...["outage", "quota"].filter(has),
        ];
        if (found.length !== 1) {
          const got = found.length === 0 ? "none" : found.join(" and ");
          ctx.addIssue({ code: "custom", input: trigger, message: `expected ${forms}, got ${got}` });
        } else if (probabilityKeys.length > 0) {
          for (const [key, expected] of Object.entries(PROBABILITY_FORM)) {
            if (has(key)) continue;
            const message = `missing; expected ${expected} (a probability trigger needs probability, seed and window)`;
            ctx.addIssue({ code: "custom", path: [key], input: undefined, message });
          }
        }
      },
      { when: (payload) => typeof payload.value === "object" && payload.value !== null },
    )
    .transform((trigger, ctx): Trigger => {
      const lastingForm =
        (trigger as { outage?: OutageTrigger; quota?: QuotaTrigger }).outage ??
        (trigger as { quota?: QuotaTrigger }).quota;
      if (lastingForm !== undefined) return lastingForm;
      if (trigger.occurrence !== undefined) {
        return { kind: "occurrence_schedule", occurrences: [trigger.occurrence] };
      }
      if (trigger.occurrences !== undefined) {
        return { kind: "occurrence_schedule", occurrences: trigger.occurrences };
      }
      const { probability, seed, window } = trigger;
      if (probability === undefined || seed === undefined || window === undefined) {
        ctx.issues.push({ code: "custom", input: trigger, message: `expected ${forms}` });
        return z.NEVER;
      }
      return {
        kind: "seeded_probability",
        probability: probability.probability,
        probabilityMillionths: probability.probabilityMillionths,
        seed,
        window: { startOccurrence: window.start_occurrence, endOccurrence: window.end_occurrence },
      };
    });
}
