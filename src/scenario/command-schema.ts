import { resolve } from "node:path/posix";
import * as z from "zod";
import { expecting, mapping, matching, nonEmptyList, positiveNumber } from "./fields.js";
import { commandText, envValue } from "./runnable.js";
import type { WrittenNumberAt } from "./trigger-schema.js";

/** What the schema needs from outside the parsed data. */

export interface SchemaContext {
  /** The scenario file's folder: relative `cwd` values resolve against it, and it is the default. */
  readonly baseDir: string;
  readonly writtenNumberAt: WrittenNumberAt;
}
/** Environment overrides: values are never echoed in messages (they may be secrets). */

export const envSchema = z.record(z.string().regex(/^[^=\0]+$/), envValue(), {
  error: (issue) =>
    issue.code === "invalid_key"
      ? "expected an environment variable name (non-empty, without = )"
      : expecting("a mapping of string to string")(issue),
});
export function isAbsoluteHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) return false;
  return new URL(text).hostname !== "";
}
/** The shape shared by `dependency.start` and `workload`, with `cwd` resolved and defaults applied. */

export function commandShape(baseDir: string) {
  return {
    command: nonEmptyList(commandText("a non-empty string"), "a list of at least one non-empty string"),
    cwd: commandText("a non-empty path")
      .optional()
      .transform((cwd) => resolve(baseDir, cwd ?? ".")),
    env: envSchema.optional().transform((env): Readonly<Record<string, string>> => ({ ...env })),
  };
}

/**
 * A dependency's `start` (at `at`, such as `dependency.start`): its command, and its readiness
 * check, a path and a time limit that defaults to `readinessSeconds`.
 */
export function startSchema(baseDir: string, at: string, readinessSeconds: number) {
  const readiness = mapping(
    { path: matching(/^\//, "a path that begins with /"), timeout_seconds: positiveNumber().optional() },
    `${at}.readiness`,
  ).transform(({ path, timeout_seconds }) => ({ path, timeoutSeconds: timeout_seconds ?? readinessSeconds }));
  return mapping({ ...commandShape(baseDir), readiness }, at);
}
