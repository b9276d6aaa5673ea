import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";
import { expectGolden, maskRunText } from "../helpers/golden.js";

/**
 * Schema 1 is frozen: the terminal text of every bundled schema-1 example and of the runs the
 * example goldens do not cover (a setup error, the workload's variables, a literal `{port}`) is
 * compared with golden files, byte for byte once the parts that differ between runs are masked.
 * `UPDATE_GOLDEN=1` rewrites them from the current build.
 */
const TERMINAL_DIR = join(ROOT, "test", "fixtures", "golden", "terminal");

const EXAMPLES = [
  "no_fault",
  "api_latency_recovery",
  "api_503_recovery",
  "api_503_failure",
  "api_429_recovery",
  "api_429_failure",
  "http_malformed_json_recovery",
  "http_malformed_json_failure",
  "http_disconnect_recovery",
  "http_disconnect_failure",
  "api_503_schedule_recovery",
  "api_503_schedule_incomplete",
  "api_503_probability_recovery",
  "api_503_probability_incomplete",
] as const;

/** Masks a terminal text: live-line clocks, the duration, the report path, run ids, proxy ports. */
function maskTerminal(text: string, outputDir: string): string {
  return maskRunText(text.split(outputDir).join("<out>"))
    .replace(/^\d{4}\.\d{3} {2}/gm, "<t>  ")
    .replace(/^(Duration: +)\d+\.\d{2}s$/m, "$1<d>")
    .replace(/127\.0\.0\.1:(\d+)/g, (match, port: string) =>
      port.startsWith("19") ? match : "127.0.0.1:<port>",
    );
}

/**
 * The live part of a run's output interleaves two sources (the proxy's operation lines and the
 * workload's prefixed output) whose relative order depends on which pipe is read first. Each
 * source is compared in order; the header and the closing summary are compared whole.
 */
function terminalParts(text: string): {
  head: string;
  operations: string[];
  workload: string[];
  tail: string;
} {
  const start = text.indexOf("Starting experiment...\n");
  const end = text.indexOf("\nExperiment complete.");
  if (start < 0 || end < 0) return { head: text, operations: [], workload: [], tail: "" };
  const live = text.slice(start + "Starting experiment...\n".length, end).split("\n");
  return {
    head: text.slice(0, start + "Starting experiment...\n".length),
    operations: live.filter((line) => line.startsWith("<t>")),
    workload: live.filter((line) => !line.startsWith("<t>")),
    tail: text.slice(end),
  };
}

async function expectTerminalGolden(name: string, stdout: string, stderr: string): Promise<void> {
  const file = join(TERMINAL_DIR, `${name}.txt`);
  const text = `${stdout}${stderr === "" ? "" : `--- stderr ---\n${stderr}`}`;
  if (process.env.UPDATE_GOLDEN === "1") {
    await mkdir(TERMINAL_DIR, { recursive: true });
    await writeFile(file, text);
    return;
  }
  if (!existsSync(file)) throw new Error(`no terminal golden file for ${name}`);
  expect(terminalParts(text)).toEqual(terminalParts(await readFile(file, "utf8")));
}

const out = testFolder("all");

describe("schema-1 terminal output", () => {
  it.each(EXAMPLES)("%s prints exactly its golden text", async (name) => {
    const outputDir = join(out.path, name);
    const run = await runBuiltCli(["run", `examples/scenarios/${name}.yaml`, "--output-dir", outputDir]);
    await expectTerminalGolden(
      name,
      maskTerminal(run.stdout, outputDir),
      maskTerminal(run.stderr, outputDir),
    );
  });

  it.each([
    ["spawn-failure", 3],
    ["dependency-failure", 3],
    ["env-variables", 0],
  ] as const)("%s writes exactly its golden events, report and terminal text", async (name, exit) => {
    const outputDir = join(out.path, name);
    const run = await runBuiltCli(["run", `test/fixtures/schema-1/${name}.yaml`, "--output-dir", outputDir]);
    expect(run.code).toBe(exit);
    await expectTerminalGolden(
      `schema-1-${name}`,
      maskTerminal(run.stdout, outputDir),
      maskTerminal(run.stderr, outputDir),
    );
    await expectGolden(`schema-1-${name}`, onlyRunDir(outputDir));
  });

  it("passes AGENTCHAOS_PROXY_URL, AGENTCHAOS_RUN_ID, the proxy_url_env name and a literal {port}", async () => {
    const outputDir = join(out.path, "variables");
    const run = await runBuiltCli([
      "run",
      "test/fixtures/schema-1/env-variables.yaml",
      "--output-dir",
      outputDir,
    ]);
    const runId = onlyRunDir(outputDir).split("/").at(-1) as string;
    const printed = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("[env-printer OUT] "))
      .map((line) => line.slice("[env-printer OUT] ".length));
    const proxy = /^AGENTCHAOS_PROXY_URL=(http:\/\/127\.0\.0\.1:\d+)$/.exec(printed[0] ?? "")?.[1];
    expect(proxy).toBeDefined();
    expect(printed).toEqual([
      `AGENTCHAOS_PROXY_URL=${proxy}`,
      `AGENTCHAOS_RUN_ID=${runId}`,
      expect.stringMatching(/^AGENTCHAOS_SUPERVISION_ID=[0-9a-f-]{36}$/),
      "LITERAL=x{port}y",
      `TOOL_URL=${proxy}`,
      'args=["--at","{port}"]',
      "status=200",
    ]);
  });
});
