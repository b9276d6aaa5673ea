import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { fixedPortsOfCall, lockPorts } from "../helpers/port-lock.js";

// A port no test scenario names, so this file never waits on another one.
const PORT = 1;
const LOCK = join(tmpdir(), `agentchaos-test-port-${PORT}.lock`);
// Another such port, for the test of contention.
const CONTENDED = 2;

describe("the port lock of fixed-port test runs", () => {
  it("reads the fixed ports of `run <file>` from the scenario, and none from {port} or other commands", () => {
    expect(fixedPortsOfCall(["run", "examples/scenarios/api_503_recovery.yaml"], ROOT)).toEqual([19103]);
    expect(fixedPortsOfCall(["validate", "examples/scenarios/api_503_recovery.yaml"], ROOT)).toEqual([]);
    expect(fixedPortsOfCall(["run", "examples/scenarios/missing.yaml"], ROOT)).toEqual([]);
  });

  it("holds the lock while taken and frees it on release", async () => {
    const release = await lockPorts([PORT]);
    expect(existsSync(join(LOCK, "owner"))).toBe(true);
    await release();
    expect(existsSync(LOCK)).toBe(false);
  });

  it("takes over a lock whose owner process has ended", async () => {
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    await mkdir(LOCK, { recursive: true });
    await writeFile(join(LOCK, "owner"), String(ended));
    const release = await lockPorts([PORT]);
    await release();
    expect(existsSync(LOCK)).toBe(false);
  });

  it("never has two holders and never fails a release while others wait for the same port", async () => {
    let holders = 0;
    let most = 0;
    const contender = async (): Promise<void> => {
      for (let turn = 0; turn < 40; turn++) {
        const release = await lockPorts([CONTENDED]);
        holders += 1;
        most = Math.max(most, holders);
        await new Promise((resolve) => setImmediate(resolve));
        holders -= 1;
        await release();
      }
    };
    await Promise.all([contender(), contender(), contender(), contender()]);
    expect(most).toBe(1);
    expect(existsSync(join(tmpdir(), `agentchaos-test-port-${CONTENDED}.lock`))).toBe(false);
  });
});
