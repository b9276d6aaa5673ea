import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { cp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { parse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { validateReport } from "../../src/report/reader.js";
import { onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";
import { fixtureDependency, freePort, PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

const shared = testFolder("all");
let template: Promise<string> | null = null;
let copies = 0;

/**
 * A finished run that recovers from one injected 503: a copy, in this test's folder, of one run
 * made once for the whole file (each test changes its copy as it likes).
 */
async function finishedRun(): Promise<string> {
  template ??= runRecovering(shared.path);
  const source = await template;
  copies += 1;
  const copy = join(dir.path, `copy-${copies}`, basename(source));
  await cp(source, copy, { recursive: true });
  return copy;
}

/** Runs a scenario that recovers from one injected 503 (its own free port) in `folder`; its run folder. */
async function runRecovering(folder: string): Promise<string> {
  const port = await freePort();
  const agent = [
    process.execPath,
    "-e",
    "const u = process.env.AGENTCHAOS_PROXY_URL + '/x'; fetch(u).then((r) => (r.status === 200 ? r : fetch(u))).then((r) => process.exit(r.status === 200 ? 0 : 1))",
  ];
  const file = await writeScenario(
    folder,
    "recovers",
    `schema_version: 1
name: recovers
${fixtureDependency(port)}workload:
  command: ${yamlList(agent)}
fault:
  type: http_error
  target:
    path: /x
  trigger:
    occurrence: 1
  status_code: 503
success:
  exit_code: 0
`,
  );
  const out = join(folder, `runs-${port}`);
  const result = await runBuiltCli(["run", file, "--output-dir", out]);
  expect(result.stdout).toContain("Result: RECOVERED\n");
  return onlyRunDir(out);
}

function snapshot(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder).map((name) => {
      const info = statSync(join(folder, name));
      return [name, `${info.size}:${info.mtimeMs}`];
    }),
  );
}

describe("inspect --recover", () => {
  it("reads the verdict of a run killed with SIGKILL, marked as recovered, and writes nothing", async () => {
    const port = await freePort();
    const file = await writeScenario(
      dir.path,
      "killed",
      `schema_version: 1
name: killed
${fixtureDependency(port)}workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "forever.mjs")])}
success:
  exit_code: 0
`,
    );
    const out = join(dir.path, "runs");
    await runBuiltCli(["run", file, "--output-dir", out], {
      onStdout: (text, child) => {
        if (text.includes("[workload OUT] running")) child.kill("SIGKILL");
      },
    });
    const runDir = onlyRunDir(out);
    const plain = await runInProcess(["inspect", runDir]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(
      `Cannot inspect report: Report not found.\nThis run folder has no report.json (the run did not finish). For the verdict its events support: agentchaos inspect --recover ${runDir}\n`,
    );
    const before = snapshot(runDir);
    const recovered = await runInProcess(["inspect", "--recover", runDir]);
    expect(recovered.code).toBe(0);
    expect(recovered.stdout).toMatch(
      /^\nExperiment incomplete: verdict recovered from its events\.\n5 events read; RUN_COMPLETED was never recorded\.\n\nResult: FAILED\nReason: WORKLOAD_NOT_COMPLETED\n/,
    );
    expect(recovered.stdout.endsWith(`\nEvents:\n${join(runDir, "events.jsonl")}\n`)).toBe(true);
    expect(snapshot(runDir)).toEqual(before);
  });

  it("--write saves report.recovered.json, never replaces it, and inspect reads it as recovered", async () => {
    const runDir = await finishedRun();
    await rm(join(runDir, "report.json"));
    const events = join(runDir, "events.jsonl");
    const text = await readFile(events, "utf8");
    const lines = text.split("\n").length - 1;
    await truncate(events, text.length - 40); // a kill in the middle of the last write
    const written = await runInProcess(["inspect", "--recover", "--write", runDir]);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(
      `${lines - 1} events read; RUN_COMPLETED was never recorded; line ${lines} and after left out (cut off or invalid).\n`,
    );
    expect(written.stdout).toContain("Result: RECOVERED\nReason: RECOVERY_OBSERVED\n");
    const saved = join(runDir, "report.recovered.json");
    expect(written.stdout.endsWith(`\nReport:\n${saved}\n`)).toBe(true);
    const content = await readFile(saved, "utf8");
    expect(validateReport(parse(content)).artifacts.report).toBe("report.recovered.json");

    const again = await runInProcess(["inspect", "--recover", "--write", runDir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      "Cannot recover run: report.recovered.json already exists; it is never replaced\n",
    );
    expect(await readFile(saved, "utf8")).toBe(content);

    const inspected = await runInProcess(["inspect", saved]);
    expect(inspected.code).toBe(0);
    expect(
      inspected.stdout.startsWith(
        "\nExperiment incomplete: verdict recovered from its events.\n\nResult: RECOVERED\n",
      ),
    ).toBe(true);
  });

  it("of a finished run whose report is missing gives the verdict the run gave", async () => {
    const runDir = await finishedRun();
    const original = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
    await rm(join(runDir, "report.json"));
    const recovered = await runInProcess(["inspect", "--recover", "--write", runDir]);
    expect(recovered.stdout).toContain("; the run completed but wrote no report.\n");
    const saved = JSON.parse(await readFile(join(runDir, "report.recovered.json"), "utf8"));
    expect({ ...saved, artifacts: { ...saved.artifacts, report: "report.json" } }).toEqual(original);
  });

  it.each([
    [
      "a folder that is no run folder",
      async (folder: string) => folder,
      "no scenario.yaml in the run folder",
    ],
    [
      "a run folder without events",
      async () => {
        const runDir = await finishedRun();
        await rm(join(runDir, "events.jsonl"));
        return runDir;
      },
      "no events.jsonl in the run folder",
    ],
    [
      "an empty events file",
      async () => {
        const runDir = await finishedRun();
        await writeFile(join(runDir, "events.jsonl"), "");
        return runDir;
      },
      "events.jsonl holds no valid event",
    ],
    [
      "events.jsonl that is a FIFO",
      async () => {
        const runDir = await finishedRun();
        await rm(join(runDir, "events.jsonl"));
        execFileSync("mkfifo", [join(runDir, "events.jsonl")]);
        return runDir;
      },
      "events.jsonl is a FIFO, not a regular file",
    ],
    [
      "scenario.yaml that is a FIFO",
      async () => {
        const runDir = await finishedRun();
        await rm(join(runDir, "scenario.yaml"));
        execFileSync("mkfifo", [join(runDir, "scenario.yaml")]);
        return runDir;
      },
      "scenario.yaml is a FIFO, not a regular file",
    ],
  ])("refuses %s with one line and exit 2", async (_, prepare, message) => {
    const target = await prepare(dir.path);
    const result = await runBuiltCli(["inspect", "--recover", target], { timeoutMs: 20_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`Cannot recover run: ${message}\n`);
  });

  it("--write without --recover is a usage error", async () => {
    const result = await runInProcess(["inspect", "--write", dir.path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--write is only used with --recover");
  });
});
