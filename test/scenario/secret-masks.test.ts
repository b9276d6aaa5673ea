import { describe, expect, it } from "vitest";
import { formatScenarioError } from "../../src/scenario/errors.js";
import { secretParts } from "../../src/scenario/secret-masks.js";
import { problems, scenarioError, scenarioText } from "./scenario-text.js";

const SECRET = "Pl4nted-Secret";

function printed(text: string): string {
  return formatScenarioError(scenarioError(text), "s.yaml");
}

describe("excerpts mask secrets found by parsing the document", () => {
  it.each([
    ["a password holding #", `  type: http\n  base_url: http://admin:pa#${SECRET}@127.0.0.1:1`],
    ["a password holding / and ?", `  type: http\n  base_url: http://admin:a/b?${SECRET}@127.0.0.1:1/v1`],
    ["a double-quoted URL", `  type: http\n  base_url: "http://admin:${SECRET}@127.0.0.1:1"\n  port: 1`],
    ["a single-quoted URL", `  type: http\n  base_url: 'http://admin:${SECRET}@127.0.0.1:1'\n  port: 1`],
    ["quotes in a flow mapping", `  {type: http, base_url: "http://u:${SECRET}@h:1", port: 1}`],
    ["a password holding a quote", `  {type: http, base_url: 'http://u:pa"ss${SECRET}@h:1', port: 1}`],
    [
      "a password holding a quote, unquoted",
      `  type: http
  base_url: http://u:it's${SECRET}@h:1
  port: 1`,
    ],
    ["a URL in a flow mapping", `  {type: http, base_url: http://u:${SECRET}@h:1, port: 1}`],
    ["a URL continued on the next line", `  type: http\n  base_url: http://u:${SECRET}\n    @h:1\n  port: 1`],
    [
      "a query in a command item",
      `  type: http\n  base_url: x\n  start: {command: [a, "/x?key=${SECRET}"], readiness: {path: /h}}`,
    ],
    ["a comment", `  type: http\n  base_url: x # ${SECRET}`],
  ])("%s", (_, dependency) => {
    const text = printed(scenarioText({ dependency }));
    expect(text).toContain("dependency");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("Secret");
  });

  it("masks a readiness path's query and fragment", () => {
    const dependency = `  type: http\n  base_url: http://127.0.0.1:1\n  start:\n    command: [a]\n    readiness: {path: "/health?token=${SECRET}", timeout_seconds: -1}`;
    const text = printed(scenarioText({ dependency }));
    expect(text).toContain("dependency.start.readiness.timeout_seconds");
    expect(text).not.toContain(SECRET);
  });

  it("masks an environment value given through an alias where the anchor is written", () => {
    // The anchor comes first (an alias must follow its anchor), under a key that is a problem.
    const workload = `  unknown: &token ${SECRET}\n  command: [a]\n  env: {TOKEN: *token}`;
    const shown = printed(scenarioText({ workload }));
    expect(shown).toContain("workload.unknown");
    expect(shown).not.toContain(SECRET);
  });

  it("keeps the rest of a plain URL readable and the caret on the problem", () => {
    const [problem] = problems(
      scenarioText({
        dependency: "  type: http\n  base_url: http://user:pw@127.0.0.1:1/v1?q=1#f\n  port: 1",
      }),
    );
    expect(problem?.excerpt.split("\n")[0]).toBe("  port: 1");
    const [urlProblem] = problems(
      scenarioText({ dependency: "  type: ftp\n  base_url: http://user:pw@127.0.0.1:1/v1?q=1" }),
    );
    expect(urlProblem?.path).toBe("dependency.type");
  });

  it("splits a string into the parts to hide", () => {
    expect(secretParts("http://u:p@h:1/v1?q=1#f")).toEqual([
      [7, 10],
      [17, 23],
    ]);
    expect(secretParts("http://h/p#frag")).toEqual([[10, 15]]);
    expect(secretParts("/health?token=1")).toEqual([[7, 15]]);
    expect(secretParts("plain text? yes")).toEqual([]);
    expect(secretParts("http://h/")).toEqual([]);
  });
});

describe("excerpts of very long lines", () => {
  it("stay at most 100 characters wide plus the cut marks, around the column", () => {
    const long = "x".repeat(100_000);
    const [problem] = problems(
      scenarioText({ workload: `  command: [a]\n  name: ${long}\n  proxy_url_env: 9` }),
    );
    expect(problem?.path).toBe("workload.proxy_url_env");
    const [longProblem] = problems(scenarioText({ workload: `  command: [a, 5, ${"y".repeat(100_000)}]` }));
    const [line, caret] = longProblem?.excerpt.split("\n") ?? [];
    expect(line?.length).toBeLessThanOrEqual(102);
    expect(caret?.trimStart()).toBe("^");
  });

  it("of a line holding many problems are each cut from a fixed window", () => {
    const items = Array.from({ length: 2000 }, (_, i) => `k${i}: v`).join(", ");
    const found = problems(scenarioText({ workload: `  command: [a]\n  env: {${items}, BAD: [1]}` }));
    expect(found.map((problem) => problem.path)).toEqual(["workload.env.BAD"]);
    const unknown = problems(scenarioText({ extra: `extra: {${items}}` }).replace("extra: {", "x: {"));
    expect(unknown.length).toBe(1);
    const many = problems(
      `${scenarioText()}${Array.from({ length: 2000 }, (_, i) => `u${i}: 1`).join("\n")}\n`,
    );
    expect(many.length).toBe(2000);
    for (const problem of many) expect(problem.excerpt.split("\n")[0]?.length).toBeLessThanOrEqual(102);
  });

  it("escape control characters and keep the caret under the column", () => {
    const [problem] = problems(
      scenarioText({ workload: '  command: [a]\n  name: "\\e[31mx"\n  proxy_url_env: 9' }),
    );
    expect(problem?.path).toBe("workload.proxy_url_env");
    const error = scenarioError(
      scenarioText({ workload: '  command: [a]\n  "\\e[2Jbad\\r\\nResult: PASSED": 1' }),
    );
    const text = formatScenarioError(error, "s.yaml");
    expect(text).not.toContain("\u001b");
    expect(text).not.toContain("\r");
    expect(text.split("\n").some((line) => line.startsWith("Result: PASSED"))).toBe(false);
  });
});
