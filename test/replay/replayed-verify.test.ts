import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";

const folder = testFolder("each");

const show = (label: string) =>
  JSON.stringify([
    process.execPath,
    "-e",
    `console.log('${label}=' + (process.env.AGENTCHAOS_LLM_UPSTREAM_URL ?? 'unset'))`,
  ]);

describe("the verify command of a run whose dependency is served from its cassette", () => {
  it("has no AGENTCHAOS_<NAME>_UPSTREAM_URL for it, not even one the parent environment holds", async () => {
    await copyFile(
      join(ROOT, "examples", "scenarios", "v2", "replay", "cassettes", "openai.jsonl"),
      join(folder.path, "llm.jsonl"),
    );
    await writeFile(
      join(folder.path, "scenario.yaml"),
      `schema_version: 2
name: replayed-verify
dependencies:
  llm:
    type: http
    base_url: http://127.0.0.1:9
    replay:
      cassette: llm.jsonl
workload:
  command: ${show("workload")}
verify:
  command: ${show("verify")}
success:
  exit_code: 0
timeout_seconds: 20
`,
    );
    const out = join(folder.path, "runs");
    const result = await runBuiltCli(["run", "scenario.yaml", "--output-dir", out], {
      cwd: folder.path,
      env: { AGENTCHAOS_LLM_UPSTREAM_URL: "http://127.0.0.1:9/inherited" },
    });
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    expect(await readFile(join(runDir, "verify.stdout.log"), "utf8")).toBe("verify=unset\n");
  }, 60_000);
});
