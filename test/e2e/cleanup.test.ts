import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { BIN, onlyRunDir, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { fixtureDependency, freePort, PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

interface RecordedRun {
  report: { result: string; reason_code: string; diagnostics: string[]; workload: Record<string, unknown> };
  events: { type: string; payload: Record<string, unknown> }[];
}

async function readRun(outputDir: string): Promise<RecordedRun> {
  const runDir = onlyRunDir(outputDir);
  const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
  const events = (await readFile(join(runDir, "events.jsonl"), "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
  return { report, events };
}

function pidsOf(run: RecordedRun): number[] {
  return run.events.filter((e) => typeof e.payload.pid === "number").map((e) => e.payload.pid as number);
}

async function scenario(name: string, body: string): Promise<string> {
  return writeScenario(dir.path, name, `schema_version: 1\nname: ${name}\n${body}success:\n  exit_code: 0\n`);
}

describe("no process outlives a run", () => {
  it("a timed-out workload whose grandchild ignores SIGTERM is killed with its whole tree", async () => {
    const port = await freePort();
    const pidFile = join(dir.path, "tree.json");
    const file = await scenario(
      "timeout-tree",
      `${fixtureDependency(port)}workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "stubborn-tree.mjs"), pidFile, "stubborn"])}
timeout_seconds: 1
`,
    );
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
    expect(result.code).toBe(1);
    const run = await readRun(out);
    expect(run.report.reason_code).toBe("WORKLOAD_TIMED_OUT");
    expect(run.report.diagnostics).toEqual(["process exceeded 1 second timeout"]);
    const tree = JSON.parse(await readFile(pidFile, "utf8")) as { child: number; grandchild: number };
    const all = [...pidsOf(run), tree.child, tree.grandchild];
    expect(all.length).toBe(4);
    await eventually(() => all.every((pid) => !processAlive(pid)), {
      what: "every process it started ended",
    });
    expect(run.events.at(-1)?.type).toBe("RUN_COMPLETED");
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s during a run stops everything, completes the run folder and exits 130",
    async (signal) => {
      const port = await freePort();
      const file = await scenario(
        "interrupted",
        `${fixtureDependency(port)}workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "forever.mjs")])}
`,
      );
      const out = join(dir.path, "runs");
      let sent = false;
      const result = await runBuiltCli(["run", file, "--output-dir", out], {
        onStdout: (text, child) => {
          if (!sent && text.includes("[workload OUT] running")) {
            sent = true;
            child.kill(signal);
          }
        },
      });
      expect(sent).toBe(true);
      expect(result.code).toBe(130);
      expect(result.stdout).toContain("Result: FAILED\nReason: INTERRUPTED\n");
      const run = await readRun(out);
      expect(run.report.reason_code).toBe("INTERRUPTED");
      expect(run.report.workload.interrupted).toBe(true);
      await eventually(() => pidsOf(run).every((pid) => !processAlive(pid)), {
        what: "every process it started ended",
      });
      const inspected = await runBuiltCli(["inspect", onlyRunDir(out)]);
      expect(inspected.code).toBe(0);
    },
  );

  it("a second SIGINT skips the grace period and still leaves no process behind", async () => {
    const port = await freePort();
    const pidFile = join(dir.path, "tree.json");
    const file = await scenario(
      "double-interrupt",
      `${fixtureDependency(port)}workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "stubborn-tree.mjs"), pidFile, "stubborn"])}
`,
    );
    const out = join(dir.path, "runs");
    let signals = 0;
    const result = await runBuiltCli(["run", file, "--output-dir", out], {
      onStdout: (text, child) => {
        if (signals === 0 && text.includes("[workload OUT] tree started")) {
          signals = 2;
          child.kill("SIGINT");
          setTimeout(() => child.kill("SIGINT"), 100);
        }
      },
    });
    expect(signals).toBe(2);
    expect(result.code).toBe(130);
    const run = await readRun(out);
    expect(run.report.reason_code).toBe("INTERRUPTED");
    // The stubborn leader ignores SIGTERM, so only the forced SIGKILL can have ended it.
    expect(run.report.workload.exit_code).toBe(-9);
    const tree = JSON.parse(await readFile(pidFile, "utf8")) as { child: number; grandchild: number };
    const all = [...pidsOf(run), tree.child, tree.grandchild];
    await eventually(() => all.every((pid) => !processAlive(pid)), {
      what: "every process it started ended",
    });
  });

  it("a dependency that never becomes ready fails setup with exit 3 and is stopped", async () => {
    const port = await freePort();
    const file = await scenario(
      "never-ready",
      `${fixtureDependency(port, ["--ready-after", "600000"], 0.5)}workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "forever.mjs")])}
`,
    );
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    const run = await readRun(out);
    expect(run.report.reason_code).toBe("DEPENDENCY_START_FAILED");
    expect(run.report.diagnostics).toEqual(["dependency did not become ready within 0.5s"]);
    expect(result.stdout).toMatch(
      /^\d{4}\.\d{3} {2}RUN_ERROR {6}DEPENDENCY_START_FAILED: dependency did not become ready within 0\.5s$/m,
    );
    expect(run.events.map((e) => e.type)).toEqual([
      "RUN_STARTED",
      "DEPENDENCY_STARTED",
      "RUN_ERROR",
      "DEPENDENCY_STOPPED",
      "RUN_COMPLETED",
    ]);
    await eventually(() => pidsOf(run).every((pid) => !processAlive(pid)), {
      what: "every process it started ended",
    });
  });

  it("a dependency that exits before becoming ready is reported with its exit code", async () => {
    const port = await freePort();
    const file = await scenario(
      "dependency-exits",
      `dependency:
  type: http
  base_url: http://127.0.0.1:${port}
  start:
    command: ${yamlList([process.execPath, "-e", "process.exit(4)"])}
    readiness:
      path: /health
workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "forever.mjs")])}
`,
    );
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    const run = await readRun(out);
    expect(run.report.diagnostics).toEqual(["dependency exited with code 4 before becoming ready"]);
    expect(result.stdout).toContain(
      "DEPENDENCY_START_FAILED: dependency exited with code 4 before becoming ready\n",
    );
  });

  it("a workload command that does not exist fails setup with exit 3 and stops the dependency", async () => {
    const port = await freePort();
    const file = await scenario(
      "no-such-workload",
      `${fixtureDependency(port)}workload:
  command: [agentchaos-no-such-program-xyz]
`,
    );
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    const run = await readRun(out);
    expect(run.report.reason_code).toBe("WORKLOAD_SPAWN_FAILED");
    expect(run.report.diagnostics).toEqual(["workload could not be started (spawn ENOENT)"]);
    expect(run.events.map((e) => e.type)).toEqual([
      "RUN_STARTED",
      "DEPENDENCY_STARTED",
      "DEPENDENCY_READY",
      "INJECTOR_STARTED",
      "RUN_ERROR",
      "DEPENDENCY_STOPPED",
      "RUN_COMPLETED",
    ]);
    await eventually(() => pidsOf(run).every((pid) => !processAlive(pid)), {
      what: "every process it started ended",
    });
  });
});

describe("a closed output pipe", () => {
  it("loses only the output: the run completes its report and stops its processes", async () => {
    const out = join(dir.path, "runs");
    // A dependency on a port of its own, and a workload that prints and recovers from a 503.
    const port = await freePort();
    const agent = [
      process.execPath,
      "-e",
      "for (let i = 0; i < 50; i++) console.log('line ' + i); const u = process.env.AGENTCHAOS_PROXY_URL + '/x'; fetch(u).then((r) => (r.status === 200 ? r : fetch(u))).then((r) => process.exit(r.status === 200 ? 0 : 1))",
    ];
    const file = await scenario(
      "closed-pipe",
      `${fixtureDependency(port)}workload:
  command: ${yamlList(agent)}
fault:
  type: http_error
  target:
    path: /x
  trigger:
    occurrence: 1
  status_code: 503
`,
    );
    const child = spawn(process.execPath, [BIN, "run", file, "--output-dir", out], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const [code] = (await once(child, "exit")) as [number | null];
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const run = await readRun(out);
    expect(run.report.result).toBe("RECOVERED");
    expect(run.events.at(-1)?.type).toBe("RUN_COMPLETED");
    await eventually(() => pidsOf(run).every((pid) => !processAlive(pid)), {
      what: "every process it started ended",
    });
  });
});

describe("an output folder that cannot be created", () => {
  it("is a setup failure (exit 3) with one clear line, and nothing is started", async () => {
    const blocker = join(dir.path, "a-file");
    await writeFile(blocker, "");
    const result = await runBuiltCli([
      "run",
      "examples/scenarios/no_fault.yaml",
      "--output-dir",
      join(blocker, "runs"),
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe("Cannot start experiment: cannot create output folder (ENOTDIR)\n");
  });

  it("under /proc fails at once instead of hanging", async () => {
    const result = await runBuiltCli(
      ["run", "examples/scenarios/no_fault.yaml", "--output-dir", "/proc/agentchaos-nope"],
      {
        timeoutMs: 20_000,
      },
    );
    expect(result.signal).toBeNull();
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^Cannot start experiment: cannot create output folder \([A-Z]+\)\n$/);
  });
});
