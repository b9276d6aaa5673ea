import * as z from "zod";
import { describe, httpTargetSchema, integer, mapping, positiveInteger } from "../fields.js";
import { legacyTriggerSchema, type WrittenNumberAt } from "../trigger-schema.js";
import { LEGACY_FAULT_TYPES, type LegacyFault } from "./types.js";

const targetSchema = httpTargetSchema("fault.target");

/** A key of the file in the model's spelling: `latency_ms` becomes `latencyMs`. */
const modelKey = (key: string): string =>
  key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The keys every fault type shares; each type adds exactly its own (docs/scenario.md,
 * docs/faults.md), which the validated fault holds under their model names.
 */
function faultMapping(type: LegacyFault["type"], own: z.ZodRawShape, writtenNumberAt: WrittenNumberAt) {
  return mapping(
    { type: z.literal(type), target: targetSchema, trigger: legacyTriggerSchema(writtenNumberAt), ...own },
    `an ${type} fault`,
  ).transform(
    (fault) =>
      Object.fromEntries(Object.entries(fault).map(([key, value]) => [modelKey(key), value])) as LegacyFault,
  );
}

const TYPE_LIST = LEGACY_FAULT_TYPES.join(", ");

function typeError(issue: { code?: string; input?: unknown }): string {
  if (issue.code === "invalid_type") return `expected a fault mapping or null, got ${describe(issue.input)}`;
  const type =
    typeof issue.input === "object" && issue.input !== null ? Reflect.get(issue.input, "type") : undefined;
  if (type === undefined) return `missing; expected one of ${TYPE_LIST}`;
  const found = typeof type === "string" ? JSON.stringify(type) : describe(type);
  return `expected one of ${TYPE_LIST}, got ${found}`;
}

/** `fault`: discriminated by `type`; absent or null is a baseline run. */
export function legacyFaultSchema(writtenNumberAt: WrittenNumberAt) {
  const latency = faultMapping("http_latency", { latency_ms: positiveInteger }, writtenNumberAt);
  const error = faultMapping(
    "http_error",
    { status_code: integer("an integer from 400 to 599", 400n, 599n) },
    writtenNumberAt,
  );
  const rateLimit = faultMapping(
    "http_rate_limit",
    { retry_after_seconds: integer("an integer of at least 0", 0n) },
    writtenNumberAt,
  );
  const malformedJson = faultMapping("http_malformed_json", {}, writtenNumberAt);
  const disconnect = faultMapping("http_disconnect", {}, writtenNumberAt);

  return z
    .discriminatedUnion("type", [latency, error, rateLimit, malformedJson, disconnect], { error: typeError })
    .nullable()
    .optional()
    .transform((fault): LegacyFault | null => fault ?? null);
}
