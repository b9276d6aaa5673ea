import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEPENDENCY_NAME, MAX_DEPENDENCIES } from "../../src/scenario/dependencies.js";
import { MAX_FAULTS } from "../../src/scenario/faults.js";
import { LEGACY_FAULT_TYPES } from "../../src/scenario/legacy/types.js";
import { loadScenario } from "../../src/scenario/load.js";
import { FAULT_TYPES } from "../../src/scenario/types.js";
import { SCHEMA_PATH, schema, schemaProblemPaths, validateProblemPaths } from "./schema-harness.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function yamlFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".yaml"))
    .map((name) => join(folder, name))
    .sort();
}

const EXAMPLES = yamlFiles("examples/scenarios");
const FIXTURES = yamlFiles("test/fixtures/scenarios");

// biome-ignore lint/suspicious/noExplicitAny: the schema is walked as free-form JSON
type Json = any;
const defs = schema.$defs as Record<string, Json>;

/** Follows local `$ref`s; a schema with its own description keeps it. */
function described(node: Json): string | undefined {
  let current = node;
  for (let hops = 0; hops < 10 && current !== undefined; hops++) {
    if (typeof current.description === "string" && current.description.trim() !== "")
      return current.description;
    if (typeof current.$ref !== "string") return undefined;
    current = defs[current.$ref.replace("#/$defs/", "")];
  }
  return undefined;
}

/** Every `properties` entry anywhere in the schema, with where it is. */
function everyKey(node: Json, at: string, found: [string, Json][]): [string, Json][] {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      everyKey(item, `${at}/${i}`, found);
    });
  } else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties") {
        for (const [name, property] of Object.entries(value as Record<string, Json>)) {
          found.push([`${at}/properties/${name}`, property]);
        }
      }
      everyKey(value, `${at}/${key}`, found);
    }
  }
  return found;
}

describe("the scenario JSON Schema and the files it describes", () => {
  it("is a draft 2020-12 schema that compiles in strict mode", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect((schema.oneOf as Json[]).map((branch) => branch.$ref)).toEqual([
      "#/$defs/scenario_v1",
      "#/$defs/scenario_v2",
    ]);
  });

  it.each(EXAMPLES)("accepts the bundled example %s, as validate does", async (file) => {
    await expect(loadScenario(join(ROOT, file))).resolves.toBeDefined();
    expect(schemaProblemPaths(readFileSync(join(ROOT, file), "utf8"))).toEqual([]);
  });

  it.each(FIXTURES)("agrees with validate on the fixture %s", (file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    const byValidate = validateProblemPaths(text);
    if (byValidate?.[0] === "(SCENARIO_EMPTY)" || byValidate?.[0] === "(SCENARIO_MULTIPLE_DOCUMENTS)") {
      // Not one YAML document: there is no instance to check (editors check each document on its own).
      return;
    }
    expect(schemaProblemPaths(text).length > 0).toBe(byValidate !== null);
  });

  it("has valid, invalid and non-document fixtures to agree on", () => {
    const verdicts = FIXTURES.map((file) => validateProblemPaths(readFileSync(join(ROOT, file), "utf8")));
    expect(verdicts.filter((verdict) => verdict === null).length).toBeGreaterThanOrEqual(3);
    expect(
      verdicts.filter((verdict) => verdict !== null && !verdict[0]?.startsWith("(")).length,
    ).toBeGreaterThanOrEqual(1);
  });

  it.each(EXAMPLES.filter((file) => file.includes("/v2/")))(
    "points the schema-2 example %s at the schema for editors",
    (file) => {
      const first = readFileSync(join(ROOT, file), "utf8").split("\n")[0] ?? "";
      const match = /^# yaml-language-server: \$schema=(\S+)$/.exec(first);
      expect(match).not.toBeNull();
      expect(resolve(dirname(join(ROOT, file)), match?.[1] ?? "")).toBe(SCHEMA_PATH);
    },
  );

  it("describes every key", () => {
    const keys = everyKey(schema, "#", []);
    expect(keys.length).toBeGreaterThan(100);
    const bare = keys.filter(([, property]) => described(property) === undefined).map(([at]) => at);
    expect(bare).toEqual([]);
  });

  it("names exactly the fault types, limits and name pattern that validate uses", () => {
    const typesOf = (fault: Json) => ({
      listed: fault.properties.type.enum,
      branches: (fault.oneOf as Json[]).map((branch) => branch.properties.type.const),
    });
    expect(typesOf(defs.fault_v1)).toEqual({ listed: LEGACY_FAULT_TYPES, branches: LEGACY_FAULT_TYPES });
    expect(typesOf(defs.fault_v2)).toEqual({ listed: FAULT_TYPES, branches: FAULT_TYPES });
    const dependencies = defs.scenario_v2.properties.dependencies;
    expect(dependencies.propertyNames.pattern).toBe(DEPENDENCY_NAME.source);
    expect(dependencies.maxProperties).toBe(MAX_DEPENDENCIES);
    expect(defs.scenario_v2.properties.faults.maxItems).toBe(MAX_FAULTS);
  });

  // That `npm pack` ships the file is checked on the real packed package, with the rest of its
  // file list, by test/e2e/pack-install.test.ts.
  it("is exported by the package manifest for editors and tools to import", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(manifest.exports["./schema/scenario.schema.json"]).toBe("./schema/scenario.schema.json");
    expect(relative(ROOT, SCHEMA_PATH)).toBe("schema/scenario.schema.json");
  });
});
