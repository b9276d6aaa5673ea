import * as z from "zod";
import { commandShape, isAbsoluteHttpUrl, type SchemaContext, startSchema } from "../command-schema.js";
import { expecting, integer, mapping, matching, nonEmptyString, positiveNumber } from "../fields.js";
import {
  notReservedProxyUrlName,
  RESERVED_NAME_ERROR,
  USER_INFO_ERROR,
  userInfoDecodes,
} from "../runnable.js";
import { legacyFaultSchema } from "./fault-schema.js";
import type { LegacyDependency, LegacyScenario, LegacyWorkload } from "./types.js";

const DEFAULT_TIMEOUT_SECONDS = 60;
const DEFAULT_READINESS_TIMEOUT_SECONDS = 5;

function dependencySchema(baseDir: string) {
  const start = startSchema(baseDir, "dependency.start", DEFAULT_READINESS_TIMEOUT_SECONDS);
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
  ).transform(
    ({ type, base_url, start }): LegacyDependency => ({ type, baseUrl: base_url, start: start ?? null }),
  );
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
    ({ name, command, cwd, env, proxy_url_env }): LegacyWorkload => ({
      name: name ?? null,
      command,
      cwd,
      env,
      proxyUrlEnv: proxy_url_env ?? null,
    }),
  );
}

/** The whole scenario file (docs/scenario.md); its output is the validated `LegacyScenario` minus `sourcePath`. */
export function legacyScenarioSchema(context: SchemaContext) {
  return mapping(
    {
      schema_version: z.literal(1n, { error: expecting("the integer 1 or 2") }),
      name: nonEmptyString(),
      dependency: dependencySchema(context.baseDir),
      workload: workloadSchema(context.baseDir),
      fault: legacyFaultSchema(context.writtenNumberAt),
      success: mapping({ exit_code: integer("an integer from 0 to 255", 0n, 255n) }, "success"),
      timeout_seconds: positiveNumber().optional(),
    },
    "the scenario",
  ).transform(
    (raw): Omit<LegacyScenario, "sourcePath"> => ({
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
