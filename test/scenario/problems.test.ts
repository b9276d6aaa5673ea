import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatScenarioError, type ScenarioError } from "../../src/scenario/errors.js";
import { parseScenario } from "../../src/scenario/load.js";
import { problems, scenarioError, scenarioText } from "./scenario-text.js";

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/scenarios");

async function fixtureError(name: string): Promise<ScenarioError> {
  const path = resolve(FIXTURES, name);
  const bytes = await readFile(path);
  try {
    parseScenario(bytes, path);
  } catch (error) {
    return error as ScenarioError;
  }
  throw new Error(`${name} was accepted`);
}

/** The column the caret of an excerpt points at (1-based). */
function caretColumn(excerpt: string): number {
  return (excerpt.split("\n")[1]?.indexOf("^") ?? -1) + 1;
}

describe("validation problems", () => {
  it("lists every problem of a file, in file order, with its key path, line and column", async () => {
    const error = await fixtureError("many-problems.yaml");
    expect(error.code).toBe("SCENARIO_INVALID");
    expect(error.problems.map(({ path, line, column }) => [path, line, column])).toEqual([
      ["schema_version", 1, 17],
      ["name", 2, 7],
      ["dependency.base_url", 5, 13],
      ["workload.command", 7, 12],
      ["workload.colour", 8, 3],
      ["fault.latency_ms", 10, 3],
      ["fault.trigger.occurrences[1]", 14, 22],
      ["success.exit_code", 15, 10],
      ["timeout_seconds", 16, 18],
    ]);
  });

  it("points a missing key at its parent mapping and an unknown key at the key itself", async () => {
    const error = await fixtureError("many-problems.yaml");
    const missing = error.problems.find((problem) => problem.path === "fault.latency_ms");
    expect(missing?.excerpt.split("\n")[0]).toBe("  type: http_latency");
    const unknown = error.problems.find((problem) => problem.path === "workload.colour");
    expect(unknown?.message).toContain('"colour"');
    expect(unknown?.message).toContain("name, command, cwd, env, proxy_url_env");
  });

  it("gives each problem an excerpt of its source line with a caret under the column", async () => {
    const error = await fixtureError("many-problems.yaml");
    for (const problem of error.problems) {
      const [line, caret] = problem.excerpt.split("\n");
      expect(caret).toMatch(/^ *\^$/);
      expect(caretColumn(problem.excerpt)).toBe(problem.column);
      expect(line?.length).toBeGreaterThanOrEqual(problem.column - 1);
    }
    const occurrences = error.problems.find((problem) => problem.path === "fault.trigger.occurrences[1]");
    expect(occurrences?.excerpt).toBe("    occurrences: [2, 2]\n                     ^");
  });

  it("says what was expected", async () => {
    const error = await fixtureError("many-problems.yaml");
    for (const problem of error.problems) expect(problem.message).toMatch(/expected/);
  });

  it("formats the problems as a count followed by one entry per problem", async () => {
    const error = await fixtureError("many-problems.yaml");
    const text = formatScenarioError(error, "many-problems.yaml");
    const lines = text.split("\n");
    expect(lines[0]).toBe("many-problems.yaml: 9 problems");
    expect(lines).toContain(
      "  fault.trigger.occurrences[1] (line 14, column 22): expected an integer greater than 2 (occurrences are strictly increasing), got 2",
    );
    expect(text).not.toMatch(/^\s+at /m);
  });

  it("counts columns from the start of the line after a byte order mark", () => {
    const text = `\uFEFF${scenarioText({ schemaVersion: "schema_version: 3" })}`;
    expect(problems(text).map(({ line, column }) => [line, column])).toEqual([[1, 17]]);
  });

  it("points into flow mappings and lists", () => {
    const found = problems(
      scenarioText({ workload: "  command: [node, agent.mjs, 7]", success: "  {exit_code: 300}" }),
    );
    expect(found.map(({ path, line, column }) => [path, line, column])).toEqual([
      ["workload.command[2]", 7, 30],
      ["success.exit_code", 9, 15],
    ]);
  });

  it("cuts a long line around the column and keeps the caret under the offending value", () => {
    const items = Array.from({ length: 60 }, (_, i) => `arg${i}`).join(", ");
    const found = problems(scenarioText({ workload: `  command: [${items}, 42, end]` }));
    expect(found.map((problem) => problem.path)).toEqual(["workload.command[60]"]);
    const [line, caret] = found[0]?.excerpt.split("\n") ?? [];
    expect(line?.length).toBeLessThanOrEqual(102);
    expect(line?.startsWith("…")).toBe(true);
    expect(line?.slice(caret?.indexOf("^"))).toMatch(/^42, end]/);
  });

  it("reads files with CRLF line endings at the same positions", () => {
    const text = scenarioText({ success: "  exit_code: 300" }).replaceAll("\n", "\r\n");
    const [problem] = problems(text);
    expect([problem?.line, problem?.column]).toEqual([9, 14]);
    expect(problem?.excerpt).toBe("  exit_code: 300\n             ^");
  });

  it("follows aliases to the node they stand for", () => {
    const text = scenarioText({ workload: "  command: &cmd [node, 7]\n  name: *cmd" });
    expect(problems(text).map(({ path, line, column }) => [path, line, column])).toEqual([
      ["workload.command[1]", 7, 24],
      ["workload.name", 8, 9],
    ]);
  });
});

describe("secrets in problems", () => {
  it("never prints environment values, even of a line that holds a problem", () => {
    const text = scenarioText({ workload: "  command: [a]\n  env: {API_KEY: sk-live-123, PIN: 4242}" });
    const error = scenarioError(text);
    const printed = formatScenarioError(error, "s.yaml");
    expect(error.problems.map((problem) => problem.path)).toEqual(["workload.env.PIN"]);
    expect(printed).not.toContain("sk-live-123");
    expect(printed).not.toContain("4242");
    expect(error.problems[0]?.column).toBe(36);
    expect(error.problems[0]?.excerpt).toBe("  env: {API_KEY: ***, PIN: ***}\n                           ^");
  });

  it("never prints URL user information or query values", () => {
    const text = scenarioText({
      dependency: "  type: http\n  base_url: http://alice:hunter2@127.0.0.1:1/v1?token=abc\n  port: 1",
    }).replace("  port: 1", "  port: 1 # was ftp://bob:pw@host");
    const printed = formatScenarioError(scenarioError(text), "s.yaml");
    expect(printed).toContain("dependency.port");
    for (const secret of ["alice", "hunter2", "token=abc", "abc", "bob", ":pw@"])
      expect(printed).not.toContain(secret);
  });
});
