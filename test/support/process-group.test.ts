import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { groupAlive, processAlive, signalGroup } from "../../src/support/process-group.js";
import { eventually } from "../helpers/eventually.js";
import { tempDir } from "../helpers/temp.js";

const groups: number[] = [];

/** Blocks this thread until `condition` holds (checked every 5 ms); throws after 10 s. */
function blockUntil(condition: () => boolean, what: string): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const deadline = performance.now() + 10_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    Atomics.wait(sleeper, 0, 0, 5);
  }
}
afterEach(() => {
  for (const pgid of groups.splice(0)) signalGroup(pgid, "SIGKILL");
});

describe("groupAlive", () => {
  it("is false for a group whose only process has ended and been reaped", async () => {
    const leader = spawn(process.execPath, ["-e", "0"], { detached: true, stdio: "ignore" });
    const pgid = leader.pid as number;
    groups.push(pgid);
    await once(leader, "exit");
    expect(groupAlive(pgid)).toBe(false);
  });

  it("is true while the leader runs, and while a process it left behind runs after it ended", async () => {
    const dir = await tempDir();
    try {
      const pidFile = join(dir.path, "pid");
      const leader = spawn(
        process.execPath,
        [
          "-e",
          `const g = require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
           require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
           g.unref();`,
        ],
        { detached: true, stdio: "ignore" },
      );
      const pgid = leader.pid as number;
      groups.push(pgid);
      expect(groupAlive(pgid)).toBe(true);
      await once(leader, "exit");
      const grandchild = Number(await readFile(pidFile, "utf8"));
      expect(processAlive(grandchild)).toBe(true);
      expect(groupAlive(pgid)).toBe(true);
      signalGroup(pgid, "SIGKILL");
      await eventually(() => !groupAlive(pgid), { what: "the group ended" });
    } finally {
      await dir.remove();
    }
  });

  it.runIf(process.platform === "linux")(
    "is true when a member starts a process and ends while the scan runs, though the scan's first listing missed the new process",
    async () => {
      const dir = await tempDir();
      try {
        const go = join(dir.path, "go");
        const pidFile = join(dir.path, "pid");
        // The leader waits for the file `go`, then starts a lasting process and ends.
        const leader = spawn(
          process.execPath,
          [
            "-e",
            `const fs = require("node:fs");
             const wait = setInterval(() => {
               if (!fs.existsSync(${JSON.stringify(go)})) return;
               clearInterval(wait);
               const g = require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
               fs.writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
               g.unref();
             }, 5);`,
          ],
          { detached: true, stdio: "ignore" },
        );
        const pgid = leader.pid as number;
        groups.push(pgid);
        let listings = 0;
        const listProcesses = (): string[] => {
          const entries = readdirSync("/proc");
          listings += 1;
          if (listings === 1) {
            // The listing is taken; now the leader starts its process and ends before the scan
            // reads it (nothing reaps it while this thread is blocked, so it stays a zombie).
            writeFileSync(go, "");
            blockUntil(() => existsSync(pidFile) && !processAlive(pgid), "the leader has ended");
          }
          return entries;
        };
        expect(groupAlive(pgid, listProcesses)).toBe(true);
        expect(listings).toBeGreaterThan(1);
        expect(processAlive(Number(await readFile(pidFile, "utf8")))).toBe(true);
      } finally {
        await dir.remove();
      }
    },
  );
});
