import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliResult, onlyRunDir, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";
import { runCliHere } from "../helpers/in-process-cli.js";

/** The table of schema-2 examples in docs/examples.md: file → result, reason, exit, injected, failed, recovered/required. */
const TABLE = [
  ["support_baseline", "PASSED", "BASELINE_SUCCEEDED", 0, 0, 0, [0, 0]],
  ["support_tool_503_twice_chain", "RECOVERED", "RECOVERY_OBSERVED", 0, 2, 2, [2, 2]],
  ["support_tool_503_twice_fifo", "FAILED", "RECOVERY_NOT_OBSERVED", 1, 2, 2, [1, 2]],
  ["support_fault_on_each_dependency", "RECOVERED", "RECOVERY_OBSERVED", 0, 2, 2, [2, 2]],
  ["support_model_fault_not_survived", "FAILED", "WORKLOAD_EXIT_CODE_MISMATCH", 1, 1, 1, [0, 1]],
] as const;

const out = testFolder("all");

/** The scenario also run twice at once, by two built executables, to show they take different ports. */
const TWICE = "support_tool_503_twice_chain";
const PARALLEL = ["a", "b"] as const;

interface ExampleRun {
  readonly outputDir: string;
  readonly run: CliResult;
}

let parallelRuns: Promise<ExampleRun[]> | undefined;

/** The two simultaneous runs of TWICE by the built CLI, made once for the tests that read them. */
function runTwiceAtOnce(): Promise<ExampleRun[]> {
  parallelRuns ??= Promise.all(
    PARALLEL.map(async (folder) => {
      const outputDir = join(out.path, "parallel", folder);
      const run = await runBuiltCli([
        "run",
        `examples/scenarios/v2/${TWICE}.yaml`,
        "--output-dir",
        outputDir,
      ]);
      return { outputDir, run };
    }),
  );
  return parallelRuns;
}

/**
 * One run of an example: TWICE's is the first of its two simultaneous runs; the others run in this
 * process through the same CLI code.
 */
async function runExample(name: string): Promise<ExampleRun> {
  if (name === TWICE) return (await runTwiceAtOnce())[0] as ExampleRun;
  const outputDir = join(out.path, name);
  return {
    outputDir,
    run: await runCliHere(["run", `examples/scenarios/v2/${name}.yaml`, "--output-dir", outputDir]),
  };
}

describe("schema-2 examples through the built CLI", () => {
  it.each(TABLE)(
    "%s ends %s / %s with exit %i",
    async (name, result, reason, exit, injected, failed, [successful, required]) => {
      const { outputDir, run } = await runExample(name);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(exit);
      const runDir = onlyRunDir(outputDir);
      expect((await readdir(runDir)).sort()).toEqual([
        "dependencies",
        "events.jsonl",
        "report.json",
        "scenario.yaml",
        "stderr.log",
        "stdout.log",
      ]);
      expect((await readdir(join(runDir, "dependencies"))).sort()).toEqual([
        "crm.stderr.log",
        "crm.stdout.log",
        "llm.stderr.log",
        "llm.stdout.log",
      ]);
      const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
      expect(report).toMatchObject({
        schema_version: 4,
        result,
        reason_code: reason,
        faults_injected: injected,
        failed_operations: failed,
        recovery: { successful, required },
      });
      expect(report.dependencies.map((d: { name: string }) => d.name)).toEqual(["llm", "crm"]);
      for (const dependency of report.dependencies) {
        expect(dependency.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(dependency.base_url).not.toContain("{port}");
      }
      const events = (await readFile(join(runDir, "events.jsonl"), "utf8"))
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { schema_version: number; sequence: number; type: string });
      expect(events.every((event) => event.schema_version === 2)).toBe(true);
      expect(events.map((event) => event.sequence)).toEqual(events.map((_, i) => i + 1));
      // Both dependencies appear in the live lines.
      expect(run.stdout).toMatch(/^\d{4}\.\d{3} {2}llm {12}POST \/v1\/chat\/completions #1$/m);
      expect(run.stdout).toMatch(/^\d{4}\.\d{3} {2}crm {12}GET \/customer\/42 #1$/m);
      expect(run.stdout).toContain(`Result: ${result}\nReason: ${reason}\n`);
      const inspected = await runCliHere(["inspect", runDir]);
      expect(inspected.code).toBe(0);
      expect(run.stdout.endsWith(inspected.stdout)).toBe(true);
      expect(await readFile(join(runDir, "scenario.yaml"))).toEqual(
        await readFile(join(ROOT, "examples", "scenarios", "v2", `${name}.yaml`)),
      );
    },
  );

  it("runs the same {port} scenario twice at once without a port clash", async () => {
    const runs = await runTwiceAtOnce();
    expect(runs.map(({ run }) => run.code)).toEqual([0, 0]);
    const urls = await Promise.all(
      runs.map(async ({ outputDir }) => {
        const report = JSON.parse(await readFile(join(onlyRunDir(outputDir), "report.json"), "utf8"));
        return report.dependencies.map((d: { base_url: string }) => d.base_url) as string[];
      }),
    );
    expect(new Set(urls.flat()).size).toBe(4);
  });
});
