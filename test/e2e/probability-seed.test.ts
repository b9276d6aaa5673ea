import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { fixtureDependency, freePort, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

/** Fetches /item/1 and /item/2, each retried until it succeeds. */
const RETRYING_WORKLOAD = `
const base = process.env.AGENTCHAOS_PROXY_URL;
for (const item of [1, 2]) {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(base + "/item/" + item);
    await response.text();
    if (response.ok) break;
    if (attempt === 5) process.exit(1);
  }
}`;

describe("the largest seed end to end", () => {
  it("18446744073709551615 round-trips exactly through scenario, run, report and inspect", async () => {
    const port = await freePort();
    const file = await writeScenario(
      dir.path,
      "max-seed",
      `schema_version: 1
name: max-seed
${fixtureDependency(port)}workload:
  command: ${yamlList([process.execPath, "--input-type=module", "-e", RETRYING_WORKLOAD])}
fault:
  type: http_error
  target:
    method: GET
    path: /item/*
  trigger:
    probability: 0.333333
    seed: 18446744073709551615
    window:
      start_occurrence: 1
      end_occurrence: 4
  status_code: 503
success:
  exit_code: 0
`,
    );
    const validated = await runBuiltCli(["validate", file]);
    expect(validated).toMatchObject({ code: 0, stdout: "Valid scenario: max-seed\n" });

    const outputDir = join(dir.path, "runs");
    const run = await runBuiltCli(["run", file, "--output-dir", outputDir]);
    expect(run.code).toBe(0);
    const runDir = onlyRunDir(outputDir);
    const text = await readFile(join(runDir, "report.json"), "utf8");
    // Seed max with p 0.333333 selects 1, 3, 6, 8 (probability-vectors.test.ts): 1 and 3 lie in the window.
    expect(text).toContain('"seed": 18446744073709551615,');
    expect(text).toContain('"probability": 0.333333,');
    expect(JSON.parse(text)).toMatchObject({
      schema_version: 3,
      result: "RECOVERED",
      reason_code: "RECOVERY_OBSERVED",
      faults_injected: 2,
      fault: { trigger: { evaluated_occurrences: 4, selected_occurrences: [1, 3], completed: true } },
    });

    const inspected = await runBuiltCli(["inspect", join(runDir, "report.json")]);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain("Window evaluations:    4/4\nFaults injected:       2\n");
    expect(run.stdout.endsWith(inspected.stdout)).toBe(true);
  });
});
