import { describe, expect, it } from "vitest";
import { ScenarioError } from "../../src/scenario/errors.js";
import { parseScenario } from "../../src/scenario/parse.js";
import { closestWord, editDistance } from "../../src/scenario/suggest.js";
import { edited, problemMessages } from "./scenario-data.js";

function schemaOneMessages(text: string): string[] {
  try {
    parseScenario(new TextEncoder().encode(text), "/tmp/scenario.yaml");
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((problem) => problem.message);
  }
  throw new Error("expected an invalid scenario");
}

describe("did you mean", () => {
  it("counts a swap of neighbours as one edit and suggests only a close, unique word", () => {
    expect(editDistance("retry_strom", "retry_storm")).toBe(1);
    expect(editDistance("occurence", "occurrence")).toBe(1);
    expect(closestWord("recovr", ["recover", "handle", "give_up"])).toBe("recover");
    expect(closestWord("xyz", ["recover", "handle", "give_up"])).toBeNull();
    expect(closestWord("of", ["off", "on"])).toBeNull();
  });

  it("names the nearest key or word in schema-2 problems and quotes a bad word", () => {
    expect(
      problemMessages(
        edited((d) => {
          d.faults[0].trigger = { occurence: 1 };
          d.faults[0].expect = "recovr";
          d.checks = { retry_after: "enforc" };
        }),
      ),
    ).toEqual([
      "faults[0].trigger: expected exactly one of occurrence, occurrences, probability with seed and window, outage or quota, got none",
      'faults[0].trigger.occurence: unknown key "occurence"; expected one of occurrence, occurrences, probability, seed, window, outage, quota (trigger); did you mean "occurrence"?',
      'faults[0].expect: expected "recover", "handle" or "give_up", got "recovr"; did you mean "recover"?',
      'checks.retry_after: expected "off", "report" or "enforce", or a mapping with mode and dependencies, got "enforc"; did you mean "enforce"?',
    ]);
    expect(problemMessages(edited((d) => (d.faults[0].type = "http_eror")))[0]).toMatch(
      /, got "http_eror"; did you mean "http_error"\?$/,
    );
  });

  it("leaves schema-1 messages as they were", () => {
    const messages = schemaOneMessages(
      "schema_version: 1\nname: x\ndependency: {type: http, base_url: 'http://127.0.0.1:9'}\nworkload: {command: [node]}\nfault: {type: http_error, target: {path: /x}, trigger: {occurence: 1}, status_code: 503}\nsuccess: {exit_code: 0}\n",
    );
    expect(messages.join("\n")).toContain('unknown key "occurence"');
    expect(messages.join("\n")).not.toContain("did you mean");
  });
});
