import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { expect } from "vitest";
import { parse } from "yaml";
import { ScenarioError } from "../../src/scenario/errors.js";
import { formatKeyPath } from "../../src/scenario/locate.js";
import { parseScenario } from "../../src/scenario/parse.js";

export const SCHEMA_PATH = fileURLToPath(new URL("../../schema/scenario.schema.json", import.meta.url));

/** The shipped schema, as plain JSON. */
export const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Record<string, unknown>;

/** Strict compilation: unknown keywords, keywords on the wrong type and ambiguous numbers fail it. */
const ajv = new Ajv2020({
  allErrors: true,
  allowUnionTypes: true,
  strictSchema: true,
  strictTypes: true,
  strictTuples: true,
  strictNumbers: true,
});
const validate = ajv.compile(schema);

/**
 * YAML text to the data an editor's JSON Schema sees: parsed as the loader parses it
 * (integers as BigInt), then written as plain JSON numbers.
 */
export function jsonData(text: string): unknown {
  const data: unknown = parse(text, { intAsBigInt: true });
  return JSON.parse(
    JSON.stringify(data, (_key, value: unknown) => {
      if (typeof value === "bigint") return Number(value);
      if (typeof value === "number" && !Number.isFinite(value)) {
        throw new Error("a .nan or .inf value has no JSON form; keep such cases out of the schema tables");
      }
      return value;
    }),
  );
}

/** Walks an ajv instance path through the data, so list positions print as [n] and keys as .key. */
function keyPathOf(data: unknown, error: ErrorObject): string {
  const path: PropertyKey[] = [];
  let node = data;
  for (const raw of error.instancePath.split("/").slice(1)) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    const key = Array.isArray(node) ? Number(segment) : segment;
    path.push(key);
    node = node !== null && typeof node === "object" ? Reflect.get(node, key) : undefined;
  }
  const params = error.params as Record<string, unknown>;
  const named = params.missingProperty ?? params.additionalProperty ?? params.propertyName;
  if (typeof named === "string") path.push(named);
  return formatKeyPath(path);
}

/** The key paths (in `validate`'s notation) where the JSON Schema finds a problem; empty when it accepts. */
export function schemaProblemPaths(text: string): string[] {
  const data = jsonData(text);
  if (validate(data)) return [];
  return [...new Set((validate.errors ?? []).map((error) => keyPathOf(data, error)))];
}

/** What `agentchaos validate` says: null when the scenario is valid, else its problem paths. */
export function validateProblemPaths(text: string): string[] | null {
  try {
    parseScenario(new TextEncoder().encode(text), "/scenarios/scenario.yaml");
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    const { code, problems } = error as ScenarioError;
    return code === "SCENARIO_INVALID" ? problems.map((problem) => problem.path) : [`(${code})`];
  }
}

/** Whether one key path is the other or lies inside it (`fault` holds `fault.trigger.seed`). */
function nested(a: string, b: string): boolean {
  const within = (inner: string, outer: string) =>
    inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return within(a, b) || within(b, a);
}

/**
 * Asserts that `validate` and the JSON Schema both reject the text, and that the schema
 * complains at (or around) a place `validate` names, not somewhere unrelated: the top level
 * does not count, except for a file whose top level is not a mapping at all.
 */
export function expectRejectedByBoth(text: string): void {
  const byValidate = validateProblemPaths(text);
  const bySchema = schemaProblemPaths(text);
  expect(byValidate, "validate accepts it").not.toBeNull();
  expect(bySchema, "the JSON Schema accepts it").not.toEqual([]);
  if (byValidate?.[0] === "(SCENARIO_NOT_MAPPING)") return;
  const specific = bySchema.filter((path) => path !== "(top level)");
  const agree = byValidate?.some((path) => specific.some((found) => nested(path, found)));
  expect(agree, `validate: ${byValidate?.join(", ")}; schema: ${specific.join(", ")}`).toBe(true);
}

export function expectAcceptedByBoth(text: string): void {
  expect(validateProblemPaths(text)).toBeNull();
  expect(schemaProblemPaths(text)).toEqual([]);
}

/** A rule only `validate` checks: it rejects the text, the JSON Schema cannot tell. */
export function expectLeftToValidate(text: string): void {
  expect(validateProblemPaths(text), "validate accepts it").not.toBeNull();
  expect(schemaProblemPaths(text)).toEqual([]);
}
