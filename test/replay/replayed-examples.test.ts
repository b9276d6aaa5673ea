import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";

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

  it.each(scenarios)(
    "%s ends as expected with no dependency started",
    async (name) => {
      const outputDir = join(out.path, name);
      const run = await runBuiltCli(["run", join(FOLDER, name), "--output-dir", outputDir]);
      expect(run.stderr).toBe("");
      const runDir = onlyRunDir(outputDir);
      const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
      const want = expected[`v2/replay/${name}`];
      expect({ result: report.result, reason_code: report.reason_code }).toEqual(want);
      const types = (await readFile(join(runDir, "events.jsonl"), "utf8"))
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as { type: string }).type);
      expect(types).toContain("REPLAY_STARTED");
      expect(types).not.toContain("DEPENDENCY_STARTED");
      expect(run.code).toBe(want?.result === "FAILED" ? 1 : 0);
    },
    60_000,
  );

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
