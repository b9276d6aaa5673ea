import * as z from "zod";
import { checksSchema, unknownCheckDependencies } from "./checks.js";
import { commandShape, type SchemaContext } from "./command-schema.js";
import { DEPENDENCY_NAME, dependencySchema, MAX_DEPENDENCIES, PORT_PLACEHOLDER } from "./dependencies.js";
import { validateFaults } from "./faults.js";
import { describe, expecting, integer, mapping, nonEmptyString, positiveNumber } from "./fields.js";
import type { Dependency, Scenario, Workload } from "./types.js";
import { verifySchema } from "./verify.js";

type Issue = z.core.$ZodIssue;
type Path = PropertyKey[];

const DEFAULT_TIMEOUT_SECONDS = 60;

const TOP_LEVEL_KEYS = [
  "schema_version",
  "name",
  "dependencies",
  "workload",
  "faults",
  "recovery",
  "checks",
  "success",
  "timeout_seconds",
  "verify",
];

/** Schema-1 keys in a schema-2 file: what to write instead. */
const SCHEMA_1_HINTS: Readonly<Record<string, string>> = {
  dependency: "schema 2 names its dependencies under dependencies (a mapping of name to dependency)",
  fault: "schema 2 lists its faults under faults (a list; each fault names its dependency)",
};

function custom(path: Path, message: string): Issue {
  return { code: "custom", path, message, input: undefined } as Issue;
}

function invalidKey(path: Path, message: string): Issue {
  return { code: "invalid_key", path, message, input: undefined } as unknown as Issue;
}

function unknownKey(path: Path, key: string, message: string): Issue {
  return { code: "unrecognized_keys", path, keys: [key], message, input: {} } as unknown as Issue;
}

/** Runs a zod schema on one value and re-bases its issues under `path`. */
function parseAt<T>(schema: z.ZodType<T>, value: unknown, path: Path, issues: Issue[]): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) issues.push({ ...issue, path: [...path, ...issue.path] } as Issue);
  return undefined;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

function parseDependencies(value: unknown, baseDir: string, issues: Issue[]): Dependency[] | null {
  if (!isMapping(value)) {
    issues.push(
      custom(
        ["dependencies"],
        value === undefined
          ? "missing; expected a mapping of 1 to 16 named dependencies"
          : `expected a mapping of 1 to 16 named dependencies, got ${describe(value)}`,
      ),
    );
    return null;
  }
  const entries = Object.entries(value);
  if (entries.length === 0 || entries.length > MAX_DEPENDENCIES) {
    issues.push(
      custom(["dependencies"], `expected 1 to ${MAX_DEPENDENCIES} dependencies, got ${entries.length}`),
    );
  }
  const dependencies: Dependency[] = [];
  let complete = true;
  for (const [name, entry] of entries) {
    const badName = !DEPENDENCY_NAME.test(name)
      ? "expected a dependency name matching ^[a-z][a-z0-9_]{0,31}$"
      : name === "proxy"
        ? 'expected a dependency name other than "proxy" (reserved: AGENTCHAOS_PROXY_URL has its own meaning)'
        : null;
    if (badName !== null) {
      issues.push(invalidKey(["dependencies", name], badName));
      complete = false;
      continue;
    }
    const parsed = parseAt(dependencySchema(baseDir, name), entry, ["dependencies", name], issues);
    if (parsed === undefined) complete = false;
    else dependencies.push(parsed);
  }
  checkUrlEnvs(value, issues);
  return complete ? dependencies : null;
}

/** `url_env` values are unique across dependencies. */
function checkUrlEnvs(dependencies: Record<string, unknown>, issues: Issue[]): void {
  const owners = new Map<string, string>();
  for (const [name, entry] of Object.entries(dependencies)) {
    const urlEnv = isMapping(entry) ? entry.url_env : undefined;
    if (typeof urlEnv !== "string") continue;
    const owner = owners.get(urlEnv);
    if (owner === undefined) owners.set(urlEnv, name);
    else
      issues.push(
        custom(
          ["dependencies", name, "url_env"],
          `expected a unique variable name; dependency ${owner} uses it too`,
        ),
      );
  }
}

function workloadSchema(baseDir: string) {
  return mapping({ name: nonEmptyString().optional(), ...commandShape(baseDir) }, "workload").transform(
    ({ name, command, cwd, env }): Workload => ({ name: name ?? null, command, cwd, env }),
  );
}

/** Where `{port}` may stand: a dependency's base_url, start.command items and start.env values. */
function portAllowedAt(path: Path): boolean {
  if (path[0] !== "dependencies" || path.length < 3) return false;
  if (path.length === 3) return path[2] === "base_url";
  return path.length === 5 && path[2] === "start" && (path[3] === "command" || path[3] === "env");
}

function checkPortPlaceholders(raw: unknown, issues: Issue[]): void {
  const visit = (value: unknown, path: Path): void => {
    if (typeof value === "string") {
      if (value.includes(PORT_PLACEHOLDER) && !portAllowedAt(path)) {
        issues.push(
          custom(
            path,
            "expected no {port} here: {port} stands only in a dependency's base_url, start.command items and start.env values",
          ),
        );
      }
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, [...path, index]);
      });
    } else if (isMapping(value)) {
      for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
    }
  };
  visit(raw, []);
  // `{port}` in start needs `{port}` in base_url: the port is picked for the URL.
  const dependencies = isMapping(raw) && isMapping(raw.dependencies) ? raw.dependencies : {};
  for (const [name, entry] of Object.entries(dependencies)) {
    if (!isMapping(entry) || typeof entry.base_url !== "string" || entry.base_url.includes(PORT_PLACEHOLDER))
      continue;
    const start = isMapping(entry.start) ? entry.start : {};
    const places: [Path, unknown][] = [
      ...(Array.isArray(start.command)
        ? start.command.map((item, i): [Path, unknown] => [["command", i], item])
        : []),
      ...(isMapping(start.env)
        ? Object.entries(start.env).map(([key, item]): [Path, unknown] => [["env", key], item])
        : []),
    ];
    for (const [place, item] of places) {
      if (typeof item === "string" && item.includes(PORT_PLACEHOLDER)) {
        issues.push(
          custom(
            ["dependencies", name, "start", ...place],
            "expected no {port} here: base_url does not use {port}",
          ),
        );
      }
    }
  }
}

/**
 * Validates a schema-2 scenario's plain data (docs/scenario.md). Returns the scenario, or every
 * issue found (positioned by key path), never both.
 */
export function validateScenario(
  raw: Record<string, unknown>,
  context: SchemaContext,
): { scenario: Omit<Scenario, "sourcePath"> | null; issues: Issue[] } {
  const issues: Issue[] = [];
  for (const key of Object.keys(raw)) {
    if (TOP_LEVEL_KEYS.includes(key)) continue;
    const hint = SCHEMA_1_HINTS[key];
    issues.push(
      unknownKey([], key, hint ?? `expected one of ${TOP_LEVEL_KEYS.join(", ")} (a schema-2 scenario)`),
    );
  }
  const name = parseAt(nonEmptyString(), raw.name, ["name"], issues);
  const dependencies = parseDependencies(raw.dependencies, context.baseDir, issues);
  const workloadRaw = raw.workload;
  if (isMapping(workloadRaw) && "proxy_url_env" in workloadRaw) {
    issues.push(
      unknownKey(
        ["workload"],
        "proxy_url_env",
        "schema 2 sets url_env on each dependency instead (dependencies.<name>.url_env)",
      ),
    );
  }
  const workload = parseAt(
    workloadSchema(context.baseDir),
    isMapping(workloadRaw)
      ? Object.fromEntries(Object.entries(workloadRaw).filter(([key]) => key !== "proxy_url_env"))
      : workloadRaw,
    ["workload"],
    issues,
  );
  const faults = validateFaults(raw.faults, dependencies, context.writtenNumberAt);
  for (const issue of faults.issues) {
    issues.push(
      issue.code === "unrecognized_keys"
        ? ({ ...issue, path: ["faults", ...issue.path], input: undefined } as unknown as Issue)
        : custom(["faults", ...issue.path], issue.message),
    );
  }
  const recovery = parseAt(
    z.enum(["chain", "fifo"], { error: expecting('"chain" or "fifo"') }),
    raw.recovery ?? "chain",
    ["recovery"],
    issues,
  );
  const checks = parseAt(checksSchema, raw.checks, ["checks"], issues);
  if (dependencies !== null) {
    const names = dependencies.map((dependency) => dependency.name);
    for (const problem of unknownCheckDependencies(raw.checks, names))
      issues.push(custom(problem.path, problem.message));
  }
  const success = parseAt(
    mapping({ exit_code: integer("an integer from 0 to 255", 0n, 255n) }, "success"),
    raw.success,
    ["success"],
    issues,
  );
  const timeout = parseAt(positiveNumber().optional(), raw.timeout_seconds, ["timeout_seconds"], issues);
  const verify = raw.verify === undefined ? undefined : parseAt(verifySchema, raw.verify, ["verify"], issues);
  checkPortPlaceholders(raw, issues);
  if (
    issues.length > 0 ||
    name === undefined ||
    dependencies === null ||
    workload === undefined ||
    recovery === undefined ||
    checks === undefined ||
    success === undefined
  ) {
    return { scenario: null, issues };
  }
  return {
    scenario: {
      schemaVersion: 2,
      name,
      dependencies,
      workload,
      faults: faults.faults,
      recovery,
      checks,
      success: { exitCode: success.exit_code },
      timeoutSeconds: timeout ?? DEFAULT_TIMEOUT_SECONDS,
      ...(verify === undefined ? {} : { verify }),
    },
    issues,
  };
}
