import { resolve } from "node:path";
import * as z from "zod";
import { faultSchema } from "./fault-schema.js";
import {
  expecting,
  integer,
  mapping,
  matching,
  nonEmptyList,
  nonEmptyString,
  positiveNumber,
} from "./fields.js";
import {
  commandText,
  envValue,
  notReservedProxyUrlName,
  RESERVED_NAME_ERROR,
  USER_INFO_ERROR,
  userInfoDecodes,
} from "./runnable.js";
import type { WrittenNumberAt } from "./trigger-schema.js";
import type { Dependency, Scenario, Workload } from "./types.js";

/** What the schema needs from outside the parsed data. */
export interface SchemaContext {
  /** The scenario file's folder: relative `cwd` values resolve against it, and it is the default. */
  readonly baseDir: string;
  readonly writtenNumberAt: WrittenNumberAt;
}

const DEFAULT_TIMEOUT_SECONDS = 60;
const DEFAULT_READINESS_TIMEOUT_SECONDS = 5;

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

function dependencySchema(baseDir: string) {
  const readiness = mapping(
    {
      path: matching(/^\//, "a path that begins with /"),
      timeout_seconds: positiveNumber().optional(),
    },
    "dependency.start.readiness",
  ).transform(({ path, timeout_seconds }) => ({
    path,
    timeoutSeconds: timeout_seconds ?? DEFAULT_READINESS_TIMEOUT_SECONDS,
  }));
  const start = mapping({ ...commandShape(baseDir), readiness }, "dependency.start");
  return mapping(
    {
      type: z.literal("http", { error: expecting('the string "http"') }),
      base_url: z
        .string({ error: expecting("an absolute http:// or https:// URL") })
        .refine(isAbsoluteHttpUrl, { error: "expected an absolute http:// or https:// URL" })
        .refine(userInfoDecodes, { error: USER_INFO_ERROR }),
      start: start.optional(),
    },
    "dependency",
  ).transform(({ type, base_url, start }): Dependency => ({ type, baseUrl: base_url, start: start ?? null }));
}

function workloadSchema(baseDir: string) {
  return mapping(
    {
      name: nonEmptyString().optional(),
      ...commandShape(baseDir),
      proxy_url_env: matching(/^[A-Za-z_][A-Za-z0-9_]*$/, "a variable name matching [A-Za-z_][A-Za-z0-9_]*")
        .refine(notReservedProxyUrlName, { error: RESERVED_NAME_ERROR })
        .optional(),
    },
    "workload",
  ).transform(
    ({ name, command, cwd, env, proxy_url_env }): Workload => ({
      name: name ?? null,
      command,
      cwd,
      env,
      proxyUrlEnv: proxy_url_env ?? null,
    }),
  );
}

/** The whole scenario file (docs/scenario.md); its output is the validated `Scenario` minus `sourcePath`. */
export function scenarioSchema(context: SchemaContext) {
  return mapping(
    {
      schema_version: z.literal(1n, { error: expecting("the integer 1 or 2") }),
      name: nonEmptyString(),
      dependency: dependencySchema(context.baseDir),
      workload: workloadSchema(context.baseDir),
      fault: faultSchema(context.writtenNumberAt),
      success: mapping({ exit_code: integer("an integer from 0 to 255", 0n, 255n) }, "success"),
      timeout_seconds: positiveNumber().optional(),
    },
    "the scenario",
  ).transform(
    (raw): Omit<Scenario, "sourcePath"> => ({
      schemaVersion: 1,
      name: raw.name,
      dependency: raw.dependency,
      workload: raw.workload,
      fault: raw.fault,
      success: { exitCode: raw.success.exit_code },
      timeoutSeconds: raw.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
    }),
  );
}
