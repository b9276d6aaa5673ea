import * as z from "zod";
import { DEPENDENCY_NAME } from "./dependencies.js";
import { describe, expecting, integer, mapping, matching, pathGlob, positiveInteger } from "./fields.js";
import type { CheckMode, ChecksConfig, WriteMethod } from "./types.js";

const MODE = '"off", "report" or "enforce"';
const mode = z.enum(["off", "report", "enforce"], { error: expecting(MODE) });

/** The defaults of docs/checks.md: ignoring an explicit Retry-After is a defect, the rest is reported. */
export const DEFAULT_CHECKS: ChecksConfig = {
  retry_after: { mode: "enforce", dependencies: null },
  retry_storm: { mode: "report", maxAttempts: 5, minGapMs: 100, dependencies: null },
  duplicate_writes: { mode: "report", dependencies: null, methods: ["POST", "PATCH"], paths: null },
  fail_fast: { mode: "off", maxMs: 30000 },
  cancellation: { mode: "off" },
};

const WRITE_METHODS: readonly WriteMethod[] = ["POST", "PUT", "PATCH", "DELETE"];

/** A list of 1 to `max` items. */
function listOf<Item extends z.ZodType>(item: Item, what: string, max: number) {
  const expected = `a list of 1 to ${max} ${what}`;
  return z
    .array(item, { error: expecting(expected) })
    .min(1, { error: `expected ${expected}, got an empty list` })
    .max(max, { error: `expected ${expected}, got more than ${max}` });
}

/** `dependencies`: the dependency names a check looks at (checked against the scenario later). */
const dependencies = listOf(matching(DEPENDENCY_NAME, "a dependency name"), "dependency names", 16);

/** `methods` of duplicate_writes: POST, PUT, PATCH or DELETE in any case; GET, HEAD and OPTIONS never write. */
const method = z
  .string({ error: expecting("POST, PUT, PATCH or DELETE") })
  .refine((value) => (WRITE_METHODS as readonly string[]).includes(value.toUpperCase()), {
    error: (issue) => {
      const value = String(issue.input);
      const upper = value.toUpperCase();
      const readOnly = ["GET", "HEAD", "OPTIONS"].includes(upper)
        ? ` (${upper} changes nothing by its contract)`
        : "";
      return `expected POST, PUT, PATCH or DELETE${readOnly}, got ${JSON.stringify(value)}`;
    },
  })
  .transform((value) => value.toUpperCase() as WriteMethod);

function describeValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : describe(value);
}

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
    retry_after: checkValue("retry_after", { dependencies: dependencies.optional() }).optional(),
    retry_storm: checkValue("retry_storm", {
      max_attempts: positiveInteger.optional(),
      min_gap_ms: integer("an integer of at least 0", 0n).optional(),
      dependencies: dependencies.optional(),
    }).optional(),
    duplicate_writes: checkValue("duplicate_writes", {
      dependencies: dependencies.optional(),
      methods: listOf(method, "methods (POST, PUT, PATCH, DELETE)", 4).optional(),
      paths: listOf(pathGlob, "paths", 32).optional(),
    }).optional(),
    fail_fast: checkValue("fail_fast", { max_ms: positiveInteger.optional() }).optional(),
    cancellation: checkValue("cancellation", {}).optional(),
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
    const after = typeof checks?.retry_after === "object" ? checks.retry_after : undefined;
    const storm = typeof checks?.retry_storm === "object" ? checks.retry_storm : undefined;
    const writes = typeof checks?.duplicate_writes === "object" ? checks.duplicate_writes : undefined;
    const writeDefaults = DEFAULT_CHECKS.duplicate_writes;
    return {
      retry_after: {
        mode: modeOf(checks?.retry_after, DEFAULT_CHECKS.retry_after.mode),
        dependencies: after?.dependencies ?? null,
      },
      retry_storm: {
        mode: modeOf(checks?.retry_storm, DEFAULT_CHECKS.retry_storm.mode),
        maxAttempts: storm?.max_attempts ?? DEFAULT_CHECKS.retry_storm.maxAttempts,
        minGapMs: storm?.min_gap_ms ?? DEFAULT_CHECKS.retry_storm.minGapMs,
        dependencies: storm?.dependencies ?? null,
      },
      duplicate_writes: {
        mode: modeOf(checks?.duplicate_writes, writeDefaults.mode),
        dependencies: writes?.dependencies ?? null,
        methods: writes?.methods === undefined ? writeDefaults.methods : [...new Set(writes.methods)],
        paths: writes?.paths ?? null,
      },
      // Off unless listed; listed without a mode, reported.
      fail_fast: {
        mode: modeOf(checks?.fail_fast, checks?.fail_fast == null ? "off" : "report"),
        maxMs:
          (typeof checks?.fail_fast === "object" ? checks.fail_fast.max_ms : undefined) ??
          DEFAULT_CHECKS.fail_fast.maxMs,
      },
      cancellation: { mode: modeOf(checks?.cancellation, checks?.cancellation == null ? "off" : "report") },
    };
  });

/**
 * The problems of checks naming dependencies the scenario does not have, positioned at each
 * name (`checks.retry_after.dependencies[1]`).
 */
export function unknownCheckDependencies(
  checks: unknown,
  names: readonly string[],
): { path: (string | number)[]; message: string }[] {
  if (typeof checks !== "object" || checks === null || Array.isArray(checks)) return [];
  const problems: { path: (string | number)[]; message: string }[] = [];
  for (const [check, value] of Object.entries(checks)) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const listed = (value as Record<string, unknown>).dependencies;
    if (!Array.isArray(listed)) continue;
    listed.forEach((name: unknown, index) => {
      if (typeof name !== "string" || !DEPENDENCY_NAME.test(name) || names.includes(name)) return;
      problems.push({
        path: ["checks", check, "dependencies", index],
        message: `expected the name of a dependency (${names.join(", ")}), got ${describeValue(name)}`,
      });
    });
  }
  return problems;
}
