import * as z from "zod";
import { commandShape, isAbsoluteHttpUrl, startSchema } from "./command-schema.js";
import { expecting, mapping, matching } from "./fields.js";
import { JSON_POINTER, replaySchema } from "./replay.js";
import { USER_INFO_ERROR, userInfoDecodes } from "./runnable.js";
import type { Dependency } from "./types.js";

/** Schema 2's default readiness time limit (schema 1 keeps 5 s). */
export const DEFAULT_READINESS_TIMEOUT_SECONDS = 15;
export const MAX_DEPENDENCIES = 16;
export const DEPENDENCY_NAME = /^[a-z][a-z0-9_]{0,31}$/;
export const PORT_PLACEHOLDER = "{port}";
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `base_url` with `{port}` replaced by a sample port, so the rest of the URL is still checked. */
function sampleUrl(baseUrl: string): string {
  return baseUrl.replaceAll(PORT_PLACEHOLDER, "1");
}

function httpDependency(baseDir: string, name: string) {
  const identity = mapping(
    {
      ignore_json_fields: z
        .array(matching(JSON_POINTER, "a JSON Pointer such as /metadata/attempt (RFC 6901)"), {
          error: expecting("a list of 1 to 32 JSON Pointers"),
        })
        .min(1, { error: "expected a list of 1 to 32 JSON Pointers, got an empty list" })
        .max(32, { error: "expected a list of 1 to 32 JSON Pointers, got more than 32" }),
    },
    `dependencies.${name}.identity`,
  );
  return mapping(
    {
      type: z.literal("http"),
      base_url: z
        .string({ error: expecting("an absolute http:// or https:// URL") })
        .refine((url) => isAbsoluteHttpUrl(sampleUrl(url)), {
          error: "expected an absolute http:// or https:// URL",
        })
        .refine((url) => userInfoDecodes(sampleUrl(url)), { error: USER_INFO_ERROR }),
      start: startSchema(baseDir, `dependencies.${name}.start`, DEFAULT_READINESS_TIMEOUT_SECONDS).optional(),
      url_env: matching(VARIABLE_NAME, "a variable name matching [A-Za-z_][A-Za-z0-9_]*")
        .refine((value) => !value.startsWith("AGENTCHAOS_"), {
          error: "expected a variable name that does not start with AGENTCHAOS_ (reserved)",
        })
        .refine((value) => value !== "PATH", {
          error: "expected a variable name other than PATH (the workload's command is looked up on it)",
        })
        .optional(),
      protocol: z.enum(["http", "mcp"], { error: expecting('"http" or "mcp"') }).optional(),
      identity: identity.optional(),
      replay: replaySchema(baseDir, name, true).optional(),
    },
    "an http dependency",
  )
    .superRefine(
      (dependency, ctx) => {
        const raw = dependency as { base_url?: unknown; start?: unknown };
        if (
          typeof raw.base_url === "string" &&
          raw.base_url.includes(PORT_PLACEHOLDER) &&
          raw.start == null
        ) {
          ctx.addIssue({
            code: "custom",
            path: ["base_url"],
            input: raw.base_url,
            message: "{port} needs start: the runner picks the port only for a dependency it starts",
          });
        }
      },
      { when: (payload) => typeof payload.value === "object" && payload.value !== null },
    )
    .transform(
      (dependency): Dependency => ({
        name,
        type: "http",
        baseUrl: dependency.base_url,
        start: dependency.start ?? null,
        urlEnv: dependency.url_env ?? null,
        protocol: dependency.protocol ?? "http",
        ignoreJsonFields: dependency.identity?.ignore_json_fields ?? [],
        usesPortPlaceholder: dependency.base_url.includes(PORT_PLACEHOLDER),
        ...(dependency.replay === undefined ? {} : { replay: dependency.replay }),
      }),
    );
}

function mcpStdioDependency(baseDir: string, name: string) {
  const { command, cwd, env } = commandShape(baseDir);
  return mapping(
    {
      type: z.literal("mcp_stdio"),
      command,
      cwd,
      env,
      replay: replaySchema(baseDir, name, false).optional(),
    },
    "an mcp_stdio dependency",
  ).transform(
    ({ type, replay, ...spec }): Dependency => ({
      name,
      type,
      ...spec,
      ...(replay === undefined ? {} : { replay }),
    }),
  );
}

const TYPES = 'expected "http" or "mcp_stdio"';

/** One dependency entry, discriminated by `type`. */
export function dependencySchema(baseDir: string, name: string) {
  return z.discriminatedUnion("type", [httpDependency(baseDir, name), mcpStdioDependency(baseDir, name)], {
    error: (issue) => {
      if (issue.input === null || typeof issue.input !== "object" || Array.isArray(issue.input))
        return expecting("a dependency mapping")(issue);
      const type: unknown = Reflect.get(issue.input, "type");
      if (type === undefined) return `missing; ${TYPES}`;
      return `${TYPES}, got ${typeof type === "string" ? JSON.stringify(type) : "a non-string"}`;
    },
  });
}
