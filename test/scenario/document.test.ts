import { describe, expect, it } from "vitest";
import { formatScenarioError, type ScenarioErrorCode } from "../../src/scenario/errors.js";
import { scenarioError, scenarioText } from "./scenario-text.js";

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe("the document itself", () => {
  it.each<[string, string | Uint8Array, ScenarioErrorCode]>([
    [
      "bytes that are not UTF-8",
      bytes(0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xff, 0xfe, 0x0a),
      "SCENARIO_NOT_UTF8",
    ],
    ["a truncated UTF-8 sequence", bytes(0x61, 0x3a, 0x20, 0xc3), "SCENARIO_NOT_UTF8"],
    ["an empty file", "", "SCENARIO_EMPTY"],
    ["whitespace only", "  \n\n", "SCENARIO_EMPTY"],
    ["comments only", "# nothing here\n", "SCENARIO_EMPTY"],
    ["a bare document marker", "---\n", "SCENARIO_EMPTY"],
    ["an unclosed flow list", "name: [a, b\nother: 1\n", "SCENARIO_YAML_SYNTAX"],
    ["a tab-indented mapping", "a:\n\tb: 1\n", "SCENARIO_YAML_SYNTAX"],
    ["a duplicate key", `${scenarioText()}name: again\n`, "SCENARIO_YAML_SYNTAX"],
    ["a top-level list", "- a\n- b\n", "SCENARIO_NOT_MAPPING"],
    ["a top-level string", "just text\n", "SCENARIO_NOT_MAPPING"],
    ["a top-level number", "42\n", "SCENARIO_NOT_MAPPING"],
    ["a top-level null", "~\n", "SCENARIO_NOT_MAPPING"],
    ["two documents", `${scenarioText()}---\n${scenarioText()}`, "SCENARIO_MULTIPLE_DOCUMENTS"],
    ["a document followed by an empty one", `${scenarioText()}---\n`, "SCENARIO_MULTIPLE_DOCUMENTS"],
  ])("rejects %s with a one-line reason", (_, input, code) => {
    const error = scenarioError(input);
    expect(error.code).toBe(code);
    expect(error.problems).toEqual([]);
    const text = formatScenarioError(error, "s.yaml");
    expect(text).not.toContain("\n");
    expect(text.startsWith("s.yaml: ")).toBe(true);
  });

  it("gives the line and column of a YAML syntax error", () => {
    const text = formatScenarioError(scenarioError("schema_version: 1\nname: [a, b\nother: 1\n"), "s.yaml");
    expect(text).toMatch(/^s\.yaml: YAML syntax error at line \d+, column \d+: /);
  });

  it("accepts a document end marker and a leading document start marker", () => {
    expect(() => scenarioError(`---\n${scenarioText()}...\n`)).toThrow(/accepted/);
  });

  it("stops a YAML alias bomb instead of expanding it", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 8; i++) {
      const previous = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    expect(scenarioError(`${levels.join("\n")}\n`).code).toBe<ScenarioErrorCode>("SCENARIO_YAML_SYNTAX");
  });
});
