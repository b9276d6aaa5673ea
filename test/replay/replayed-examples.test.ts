import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, testFolder } from "../helpers/cli.js";
import { runOf, runSuite, type SuiteOutcome } from "../helpers/suite-runs.js";

const FOLDER = join(ROOT, "examples", "scenarios", "v2", "replay");
const expected = JSON.parse(
  await readFile(join(ROOT, "examples", "scenarios", "expected-outcomes.json"), "utf8"),
) as Record<string, { result: string; reason_code: string }>;
const scenarios = (await readdir(FOLDER)).filter((name) => name.endsWith(".yaml")).sort();
const out = testFolder("all");

/** The replayed MCP examples (examples/mcp/scenarios), run in the same suite. */
const MCP = join(ROOT, "examples", "mcp");
const MCP_NAMES = [
  "http_replayed_baseline.yaml",
  "http_replayed_tool_error_recovered.yaml",
  "stdio_replayed_baseline.yaml",
  "stdio_replayed_tool_error_recovered.yaml",
];

/** Every example (both folders) runs once, two at a time, by one `agentchaos suite` of the built CLI. */
let suite: SuiteOutcome;
beforeAll(async () => {
  suite = await runSuite(
    [
      ...scenarios.map((name) => `examples/scenarios/v2/replay/${name}`),
      ...MCP_NAMES.map((name) => `examples/mcp/scenarios/${name}`),
    ],
    join(out.path, "suite"),
  );
}, 240_000);

describe("the bundled replayed examples", () => {
  it("are listed in expected-outcomes.json", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(7);
    for (const name of scenarios) expect(expected[`v2/replay/${name}`], name).toBeDefined();
  });

  it("run in one suite with no error, its exit code 1 when one of them failed", () => {
    expect(suite.cli.stderr).toBe("");
    const failed = scenarios.some((name) => expected[`v2/replay/${name}`]?.result === "FAILED");
    expect(suite.cli.code, suite.cli.stdout).toBe(failed ? 1 : 0);
    expect(suite.runs.size).toBe(scenarios.length + MCP_NAMES.length);
  });

  it.each(scenarios)("%s ends as expected with no dependency started", (name) => {
    const run = runOf(suite, `examples/scenarios/v2/replay/${name}`);
    const want = expected[`v2/replay/${name}`];
    expect({ result: run.report.result, reason_code: run.report.reason_code }).toEqual(want);
    const types = run.events.map((event) => event.type);
    expect(types).toContain("REPLAY_STARTED");
    expect(types).not.toContain("DEPENDENCY_STARTED");
    expect(run.exitCode).toBe(want?.result === "FAILED" ? 1 : 0);
  });

  it("ships cassettes that the cassette JSON Schema accepts, line by line", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = JSON.parse(await readFile(join(ROOT, "schema", "cassette.schema.json"), "utf8"));
    const validate = new Ajv2020({ strictSchema: true, allowUnionTypes: true }).compile(schema);
    const files = (await readdir(join(FOLDER, "cassettes"))).filter((name) => name.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const lines = (await readFile(join(FOLDER, "cassettes", file), "utf8")).trimEnd().split("\n");
      for (const line of lines)
        expect(validate(JSON.parse(line)), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});

describe("the bundled replayed MCP examples", () => {
  it.each(MCP_NAMES)("%s ends as expected-outcomes.json says, served from its committed cassette", (name) => {
    const want = expected[`../mcp/scenarios/${name}`];
    expect(want).toBeDefined();
    const run = runOf(suite, `examples/mcp/scenarios/${name}`);
    expect({ result: run.report.result, reason_code: run.report.reason_code }).toEqual(want);
    expect(run.events.map((event) => event.type)).toContain("REPLAY_STARTED");
    expect(run.exitCode).toBe(0);
  });

  it("ships cassettes that the cassette JSON Schema accepts, line by line", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = JSON.parse(await readFile(join(ROOT, "schema", "cassette.schema.json"), "utf8"));
    const validate = new Ajv2020({ strictSchema: true, allowUnionTypes: true }).compile(schema);
    for (const file of ["notes-http.jsonl", "notes-stdio.jsonl"]) {
      const lines = (await readFile(join(MCP, "cassettes", file), "utf8")).trimEnd().split("\n");
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines)
        expect(validate(JSON.parse(line)), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
