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
});
