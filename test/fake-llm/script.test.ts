import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScript, ScriptError } from "../../src/fake-llm/script.js";
import { testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";

function problemsOf(text: string): { path: string; line: number; column: number; message: string }[] {
  try {
    parseScript(text);
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    expect(error.code).toBe("SCRIPT_INVALID");
    return error.problems.map(({ path, line, column, message }) => ({ path, line, column, message }));
  }
  throw new Error("the script was accepted");
}

function codeOf(text: string): string {
  try {
    parseScript(text);
  } catch (error) {
    if (error instanceof ScriptError) return error.code;
    throw error;
  }
  return "accepted";
}

const YAML_SCRIPT = `# answers of the weather agent
- when: {tool_result: true}
  answer: {text: It is sunny.}
- when:
    user_contains: weather
    tool_result: false
  answer:
    text: Let me look.
    tool_calls:
      - name: get_weather
        arguments: {city: Paris, days: 2}
      - name: get_time
- answer:
    text: Ask me about the weather.
`;

const JSON_SCRIPT = `[
\t{"when": {"tool_result": true}, "answer": {"text": "It is sunny."}},
\t{
\t\t"when": {"user_contains": "weather", "tool_result": false},
\t\t"answer": {
\t\t\t"text": "Let me look.",
\t\t\t"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}, {"name": "get_time"}]
\t\t}
\t},
\t{"answer": {"text": "Ask me about the weather."}}
]
`;

describe("fake-llm scripts", () => {
  it("read the same rules from YAML and from JSON", () => {
    const rules = parseScript(YAML_SCRIPT);
    expect(rules).toEqual([
      { when: { tool_result: true }, answer: { text: "It is sunny." } },
      {
        when: { user_contains: "weather", tool_result: false },
        answer: {
          text: "Let me look.",
          tool_calls: [{ name: "get_weather", arguments: { city: "Paris", days: 2 } }, { name: "get_time" }],
        },
      },
      { answer: { text: "Ask me about the weather." } },
    ]);
    expect(parseScript(JSON_SCRIPT)).toEqual(rules);
  });

  it("point every problem at its key path, line and column", () => {
    const text = [
      "- when: {tool_result: yes}", // line 1
      "  answer: {}", // line 2
      "- when: {user_contain: weather}", // line 3
      "  answer:", // line 4
      "    tool_calls: []", // line 5
      "- answer:", // line 6
      "    text: hi", // line 7
      "    tool_calls:", // line 8
      "      - arguments: [1, 2]", // line 9
    ].join("\n");
    expect(problemsOf(text)).toEqual([
      { path: "[0].when.tool_result", line: 1, column: 23, message: "expected true or false, got a string" },
      { path: "[0].answer", line: 2, column: 11, message: "expected text, tool_calls or both" },
      {
        path: "[1].when.user_contain",
        line: 3,
        column: 10,
        message:
          'unknown key "user_contain"; expected one of user_contains, user_matches, tool_result, call (conditions: user_contains, user_matches, tool_result, call)',
      },
      {
        path: "[1].answer.tool_calls",
        line: 5,
        column: 17,
        message: "expected a list of at least one tool call, got an empty list",
      },
      { path: "[2].answer.tool_calls[0].name", line: 9, column: 9, message: "missing; expected a tool name" },
      {
        path: "[2].answer.tool_calls[0].arguments",
        line: 9,
        column: 20,
        message: "expected a mapping of argument names to values, got a list",
      },
    ]);
  });

  it("must be a non-empty list of rules", () => {
    expect(problemsOf("when: {}\nanswer: {text: hi}\n")).toEqual([
      {
        path: "(top level)",
        line: 1,
        column: 1,
        message: "expected a list of at least one rule, got a mapping",
      },
    ]);
    expect(problemsOf("[]")[0]?.message).toBe("expected a list of at least one rule, got an empty list");
    expect(codeOf("# nothing\n")).toBe("SCRIPT_INVALID");
    expect(codeOf("- answer: {text: a}\n---\n- answer: {text: b}\n")).toBe("SCRIPT_SYNTAX");
    expect(codeOf('[{"answer": {"text": "hi"}, "answer": 1}]')).toBe("SCRIPT_SYNTAX");
  });
});

describe("agentchaos fake-llm --script", () => {
  const dir = testFolder("each");

  it("lists the problems of an invalid script with positions and exits 2 without listening", async () => {
    await writeFile(join(dir.path, "rules.yaml"), "- when: {tool_result: yes}\n  answer: {text: hi}\n");
    const result = await runInProcess(["fake-llm", "--script", "rules.yaml"], dir.path);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: [
        "fake-llm: invalid script rules.yaml: 1 problem",
        "  [0].when.tool_result (line 1, column 23): expected true or false, got a string",
        "      - when: {tool_result: yes}",
        "                            ^",
        "",
      ].join("\n"),
    });
  });

  it("says in one line that a script file is missing or is not YAML, and exits 2", async () => {
    const missing = await runInProcess(["fake-llm", "--script", "nope.yaml"], dir.path);
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr: "fake-llm: invalid script nope.yaml: file not found\n",
    });
    await writeFile(join(dir.path, "broken.json"), '[{"answer": {"text": "hi"}');
    const broken = await runInProcess(["fake-llm", "--script", "broken.json"], dir.path);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /^fake-llm: invalid script broken.json: syntax error at line 1, column \d+: .+\n$/,
    );
  });
});
