import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { groupAlive, processAlive, signalGroup } from "../../src/support/process-group.js";
import { eventually } from "../helpers/eventually.js";
import { tempDir } from "../helpers/temp.js";

const groups: number[] = [];
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
});
