import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ManagedProcess, SpawnError } from "../../src/runtime/child-process.js";
import { processAlive, signalGroup } from "../../src/support/process-group.js";

import { beforeDeadline, eventually } from "../helpers/eventually.js";
import { tempDir } from "../helpers/temp.js";

const programs = join(import.meta.dirname, "..", "fixtures", "programs");
let dir: { path: string; remove: () => Promise<void> };
const started: number[] = [];

beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  for (const pid of started.splice(0)) signalGroup(pid, "SIGKILL");
  await dir.remove();
});

function spec(args: string[], cwd = programs) {
  return { command: [process.execPath, ...args] as [string, ...string[]], cwd, env: {} };
}

async function start(args: string[], extra: Partial<Parameters<typeof ManagedProcess.start>[0]> = {}) {
  const child = await ManagedProcess.start({
    spec: spec(args),
    stdoutPath: join(dir.path, "out.log"),
    stderrPath: join(dir.path, "err.log"),
    ...extra,
  });
  started.push(child.pid);
  return child;
}

async function pidsOf(file: string): Promise<{ child: number; grandchild: number }> {
  const read = () =>
    readFile(file, "utf8")
      .then((text) => JSON.parse(text) as { child: number; grandchild: number })
      .catch(() => null);
  await eventually(async () => (await read()) !== null, { what: "the fixture wrote its pids" });
  return (await read()) as { child: number; grandchild: number };
}

describe("ManagedProcess", () => {
  it("writes raw output to its log files and reports each line with its stream", async () => {
    const lines: string[] = [];
    const child = await start(["exit-code.mjs", "7"], {
      onLine: (stream, line) => lines.push(`${stream}:${line}`),
    });
    const exit = await child.reap();
    expect(exit.exitCode).toBe(7);
    expect(await readFile(join(dir.path, "out.log"), "utf8")).toBe("out line\n");
    expect(await readFile(join(dir.path, "err.log"), "utf8")).toBe("err line\n");
    expect(lines.sort()).toEqual(["err:err line", "out:out line"]);
  });

  it("passes the spec's env and the extra env over the parent environment", async () => {
    const child = await ManagedProcess.start({
      spec: {
        command: [
          process.execPath,
          "-e",
          "console.log(process.env.A + ' ' + process.env.B + ' ' + typeof process.env.PATH)",
        ],
        cwd: programs,
        env: { A: "from-spec", B: "from-spec" },
      },
      extraEnv: { B: "extra" },
      stdoutPath: join(dir.path, "out.log"),
      stderrPath: join(dir.path, "err.log"),
    });
    await child.reap();
    expect(await readFile(join(dir.path, "out.log"), "utf8")).toBe("from-spec extra string\n");
  });

  it("rejects with SpawnError ENOENT for a command that does not exist", async () => {
    const failure = ManagedProcess.start({
      spec: { command: ["agentchaos-no-such-command-xyz"], cwd: programs, env: {} },
      stdoutPath: join(dir.path, "out.log"),
      stderrPath: join(dir.path, "err.log"),
    });
    await expect(failure).rejects.toBeInstanceOf(SpawnError);
    await expect(failure).rejects.toMatchObject({ code: "SPAWN_FAILED", errno: "ENOENT" });
  });

  it("rejects with SpawnError for a working directory that does not exist", async () => {
    const failure = ManagedProcess.start({
      spec: spec(["forever.mjs"], join(dir.path, "missing")),
      stdoutPath: join(dir.path, "out.log"),
      stderrPath: join(dir.path, "err.log"),
    });
    await expect(failure).rejects.toMatchObject({ code: "SPAWN_FAILED", errno: "ENOENT" });
  });

  it("records a signal death as the negative signal number", async () => {
    const child = await start(["forever.mjs"]);
    const exit = await child.stop();
    expect(exit.exitCode).toBe(-15);
  });

  // The process's timers are faked from the moment it has exited: a grace period or a poll
  // would then never end, and the deadline (real timers) would report it.
  it("stopping or reaping a process that already exited alone starts no wait", async () => {
    const child = await start(["-e", "process.exit(3)"]);
    await child.exited;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval"] });
    try {
      expect(await beforeDeadline(child.reap(), { what: "the reap" })).toEqual({ exitCode: 3 });
      expect(await beforeDeadline(child.stop(), { what: "the stop" })).toEqual({ exitCode: 3 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("escalates to SIGKILL for a whole tree that ignores SIGTERM and leaves nothing behind", async () => {
    const pidFile = join(dir.path, "pids.json");
    const child = await start(["stubborn-tree.mjs", pidFile, "stubborn"]);
    const pids = await pidsOf(pidFile);
    const exit = await child.stop();
    expect(exit.exitCode).toBe(-9);
    await eventually(() => !processAlive(pids.child) && !processAlive(pids.grandchild), {
      what: "every process it started ended",
    });
  });

  it("a forced stop skips the grace period", async () => {
    const pidFile = join(dir.path, "pids.json");
    const child = await start(["stubborn-tree.mjs", pidFile, "stubborn"]);
    const pids = await pidsOf(pidFile);
    const force = new AbortController();
    force.abort();
    const exit = await child.stop(force.signal);
    expect(exit.exitCode).toBe(-9);
    await eventually(() => !processAlive(pids.grandchild), { what: "every process it started ended" });
  });

  it("reaping a leader that exited by itself ends the grandchild it left behind", async () => {
    const pidFile = join(dir.path, "pids.json");
    const child = await start([
      "-e",
      `const { spawn } = require("node:child_process");
       const g = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
       require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify({ child: process.pid, grandchild: g.pid }));
       setTimeout(() => process.exit(0), 100);`,
    ]);
    const pids = await pidsOf(pidFile);
    const exit = await child.reap();
    expect(exit.exitCode).toBe(0);
    await eventually(() => !processAlive(pids.grandchild), { what: "every process it started ended" });
  });
});
