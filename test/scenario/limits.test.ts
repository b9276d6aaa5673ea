import { describe, expect, it } from "vitest";
import { formatScenarioError, type ScenarioErrorCode } from "../../src/scenario/errors.js";
import { SCENARIO_LIMITS } from "../../src/scenario/limits.js";
import { parse, scenarioError, scenarioText } from "./scenario-text.js";

const { maxDepth, maxEntries, maxBytes } = SCENARIO_LIMITS;

/** `depth` collections nested inside each other, in four YAML spellings, as the value of `x`. */
const nestings: Record<string, (depth: number) => string> = {
  "flow lists": (depth) => `x: ${"[".repeat(depth)}${"]".repeat(depth)}\n`,
  "flow mappings": (depth) => `x: ${"{a: ".repeat(depth)}1${"}".repeat(depth)}\n`,
  "compact block lists": (depth) => `x:\n  ${"- ".repeat(depth)}1\n`,
  "block mappings": (depth) =>
    `x:\n${Array.from({ length: depth }, (_, i) => `${"  ".repeat(i + 1)}k:`).join("\n")} 1\n`,
};

describe("scenario size limits", () => {
  it.each(Object.entries(nestings))(
    "accepts %s nested to the limit and refuses one level more",
    (_, nest) => {
      // The top-level mapping is the first level.
      expect(scenarioError(`${scenarioText()}${nest(maxDepth - 1)}`).code).toBe<ScenarioErrorCode>(
        "SCENARIO_INVALID",
      );
      const error = scenarioError(`${scenarioText()}${nest(maxDepth)}`);
      expect(error.code).toBe<ScenarioErrorCode>("SCENARIO_TOO_LARGE");
      expect(formatScenarioError(error, "s.yaml")).toMatch(
        /^s\.yaml: nests deeper than 64 levels \(at line \d+, column \d+\)$/,
      );
    },
  );

  it("refuses nesting far past the limit at once, without building it", () => {
    const error = scenarioError(`x: ${"[".repeat(400_000)}\n`);
    expect(error.code).toBe<ScenarioErrorCode>("SCENARIO_TOO_LARGE");
  });

  it("counts mapping entries and list items together", () => {
    const base = scenarioText();
    const used = 9 + 2; // entries of the base scenario: 6 top-level keys, 2 under dependency, 1 under workload, 1 under success, 1 command item
    const fill = (items: number): string => `${base}x: [${Array(items).fill("1").join(", ")}]\n`;
    expect(scenarioError(fill(maxEntries - used - 1)).code).toBe<ScenarioErrorCode>("SCENARIO_INVALID");
    const error = scenarioError(fill(maxEntries - used));
    expect(error.code).toBe<ScenarioErrorCode>("SCENARIO_TOO_LARGE");
    expect(formatScenarioError(error, "s.yaml")).toBe(
      "s.yaml: holds more than 10000 mapping entries and list items",
    );
  });

  it("refuses a file over 1 MiB before decoding it", () => {
    const padding = `# ${"p".repeat(maxBytes)}\n`;
    const error = scenarioError(`${scenarioText()}${padding}`);
    expect(error.code).toBe<ScenarioErrorCode>("SCENARIO_TOO_LARGE");
    expect(formatScenarioError(error, "s.yaml")).toBe(
      "s.yaml: is larger than the limit of 1048576 bytes (1 MiB)",
    );
    const fits = `${scenarioText()}# ${"p".repeat(maxBytes - scenarioText().length - 3)}\n`;
    expect(fits.length).toBe(maxBytes);
    expect(parse(fits).name).toBe("test-scenario");
  });
});

describe("YAML errors say what is wrong", () => {
  it("an alias of an anchor that does not exist is not reported as an alias bomb", () => {
    const error = scenarioError(`${scenarioText()}x: *nowhere\n`);
    expect(error.code).toBe<ScenarioErrorCode>("SCENARIO_YAML_SYNTAX");
    const text = formatScenarioError(error, "s.yaml");
    expect(text).toMatch(
      /^s\.yaml: YAML syntax error at line 10, column 4: an alias refers to an anchor that is not defined before it$/,
    );
  });

  it("a duplicate key is found wherever it is, with its position", () => {
    const text = formatScenarioError(scenarioError(`${scenarioText()}x: {a: 1, b: 2, a: 3}\n`), "s.yaml");
    expect(text).toBe("s.yaml: YAML syntax error at line 10, column 17: Map keys must be unique");
    const top = formatScenarioError(scenarioError(`${scenarioText()}name: again\n`), "s.yaml");
    expect(top).toBe("s.yaml: YAML syntax error at line 10, column 1: Map keys must be unique");
  });

  it("keys that look alike but differ in type are not duplicates", () => {
    expect(scenarioError(`${scenarioText()}x: {1: a, "1": b}\n`).code).toBe<ScenarioErrorCode>(
      "SCENARIO_INVALID",
    );
  });
});
