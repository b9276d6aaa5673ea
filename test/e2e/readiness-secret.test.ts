import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { fixtureDependency, freePort, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");
const SECRET = "planted-readiness-token-Vb42";

describe("a query value in readiness.path", () => {
  it("is used for readiness but written to no event, report or terminal line", async () => {
    const port = await freePort();
    const dependency = fixtureDependency(port).replace(
      "path: /health",
      `path: "/health?token=${SECRET}#frag"`,
    );
    const file = await writeScenario(
      dir.path,
      "readiness-secret",
      `schema_version: 1
name: readiness-secret
${dependency}workload:
  command: ${yamlList([process.execPath, "-e", "0"])}
success:
  exit_code: 0
`,
    );
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    const events = await readFile(join(runDir, "events.jsonl"), "utf8");
    const report = await readFile(join(runDir, "report.json"), "utf8");
    for (const text of [events, report, result.stdout, result.stderr]) expect(text).not.toContain(SECRET);
    const ready = events
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line))
      .find((event) => event.type === "DEPENDENCY_READY");
    expect(ready.payload.readiness_path).toBe("/health");
  });
});
