import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { groupAlive, processAlive } from "../../src/support/process-group.js";
import { testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { PROGRAMS } from "../helpers/scenario-files.js";

const dir = testFolder("each");

/**
 * The children `pid`'s main thread started, from the kernel's own list: one small read, so that
 * polling it while the runner starts leaves the cores to the processes being waited for (the
 * runner and the library start their children from the main thread).
 */
function childrenListed(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return text === "" ? [] : text.split(" ").map(Number);
  } catch {
    return []; // The runner has not started, or has already ended.
  }
}

/** Starts the runner fixture; resolves with the runner, its managed pid and its supervisor's pid. */
async function startRunner(mode: "hold" | "exit" | "stop") {
  const runner = spawn(process.execPath, [join(PROGRAMS, "managed-runner.mjs"), mode, dir.path], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(runner.stdout, "data")) as [Buffer];
  const [managed, supervisor] = line.toString().trim().split(" ").map(Number) as [number, number];
  return { runner, managed, supervisor };
}

describe.runIf(process.platform === "linux")("the supervisor of managed processes", () => {
  it("ends every registered group when its runner is killed with SIGKILL, then exits", async () => {
    const { runner, managed, supervisor } = await startRunner("hold");
    expect(processAlive(managed)).toBe(true);
    expect(processAlive(supervisor)).toBe(true);
    runner.kill("SIGKILL");
    await once(runner, "exit");
    await eventually(() => !groupAlive(managed) && !processAlive(supervisor), {
      what: "the managed group and the supervisor ended",
    });
  });

  it("ends a group its runner forgot to stop when the runner exits normally", async () => {
    const { runner, managed, supervisor } = await startRunner("exit");
    await once(runner, "exit");
    await eventually(() => !groupAlive(managed) && !processAlive(supervisor), {
      what: "the forgotten group and the supervisor ended",
    });
  });

  it("never keeps its runner alive, and exits with it once the groups were stopped", async () => {
    const { runner, managed, supervisor } = await startRunner("stop");
    const [code] = (await once(runner, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(groupAlive(managed)).toBe(false);
    await eventually(() => !processAlive(supervisor), { what: "the supervisor exited" });
  });

  it("ends a process even when its runner is killed between spawning it and registering it", async () => {
    // The runner is killed the moment its second child (supervisor first, then the managed
    // process) shows up: usually before the spawn has returned, so before any registration.
    for (let round = 0; round < 4; round++) {
      const runner = spawn(process.execPath, [join(PROGRAMS, "managed-runner.mjs"), "hold", dir.path], {
        stdio: "ignore",
      });
      const pid = runner.pid as number;
      let children: number[] = [];
      while (children.length < 2) {
        children = childrenListed(pid);
        await new Promise((resolve) => setImmediate(resolve));
      }
      runner.kill("SIGKILL");
      await once(runner, "exit");
      await eventually(() => children.every((child) => !groupAlive(child)), {
        what: "every process it started ended",
      });
    }
  });
});
