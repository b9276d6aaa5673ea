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

describe("the bundled replayed examples", () => {
  it("are listed in expected-outcomes.json", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(7);
    for (const name of scenarios) expect(expected[`v2/replay/${name}`], name).toBeDefined();
  });

  /** Every example runs once, two at a time, by one `agentchaos suite` of the built CLI. */
  let suite: SuiteOutcome;
  beforeAll(async () => {
    suite = await runSuite(
      scenarios.map((name) => `examples/scenarios/v2/replay/${name}`),
      join(out.path, "suite"),
    );
  }, 180_000);

  it("run in one suite with no error, its exit code 1 when one of them failed", () => {
    expect(suite.cli.stderr).toBe("");
    const failed = scenarios.some((name) => expected[`v2/replay/${name}`]?.result === "FAILED");
    expect(suite.cli.code, suite.cli.stdout).toBe(failed ? 1 : 0);
    expect(suite.runs.size).toBe(scenarios.length);
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
