import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPORT_LIMITS } from "../../src/report/limits.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { writeLongRun } from "../helpers/long-run.js";
import { writeBigRun } from "../reporters/big-run.js";

const dir = testFolder("each");

/** CPU time `pid` has used, in clock ticks (Linux: utime + stime of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * Runs the built CLI and sends `signal` once it has used 0.3 s of CPU: well past Node's start-up
 * (about 0.1 s of CPU on a quiet machine, after which the entry installs its handlers before it
 * loads the rest of the CLI), and inside the work (each command here needs 0.6 s or more).
 */
async function interrupted(args: string[], signal: "SIGINT" | "SIGTERM") {
  let signalled = false;
  const result = await runBuiltCli(args, {
    timeoutMs: 30_000,
    onSpawn: (child) => {
      const poll = setInterval(() => {
        if (child.pid !== undefined && cpuTicks(child.pid) >= 30) {
          clearInterval(poll);
          signalled = true;
          child.kill(signal);
        }
      }, 2);
      child.once("exit", () => clearInterval(poll));
    },
  });
  return { ...result, signalled };
}

/** A scenario of about 1 MiB with 9,000 unknown keys: valid YAML that takes a while to check. */
async function slowScenario(): Promise<string> {
  const keys = Array.from({ length: 9000 }, (_, i) => `unknown_${i}: ${"v".repeat(90)}`).join("\n");
  const path = join(dir.path, "slow.yaml");
  await writeFile(path, `schema_version: 1\nname: slow\n${keys}\n`);
  return path;
}

/** A JSON file just under the report size limit. */
async function slowReport(): Promise<string> {
  const row = '{"failed_operation_id":"a","retry_operation_id":null,"recovery_latency_ms":null}';
  const rows = Array(Math.floor((REPORT_LIMITS.maxBytes - 100) / (row.length + 1))).fill(row);
  const path = join(dir.path, "report.json");
  await writeFile(path, `{"rows":[${rows.join(",")}]}`);
  return path;
}

describe.runIf(process.platform === "linux")("validate and inspect stop promptly on a signal", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("validate exits 130 on %s", async (signal) => {
    const result = await interrupted(["validate", await slowScenario()], signal);
    expect(result.signalled).toBe(true);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(130);
  });

  it.each(["SIGINT", "SIGTERM"] as const)("inspect exits 130 on %s", async (signal) => {
    const result = await interrupted(["inspect", await slowReport()], signal);
    expect(result.signalled).toBe(true);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(130);
  });
});

describe.runIf(process.platform === "linux")("report and inspect --recover stop promptly on a signal", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "report exits 130 on %s while it reads a long run",
    async (signal) => {
      await writeBigRun(dir.path, 40_000);
      const result = await interrupted(["report", dir.path, "--format", "html"], signal);
      expect(result.signalled).toBe(true);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(130);
      expect(result.stdout).toBe("");
    },
  );

  it.each(["SIGINT", "SIGTERM"] as const)(
    "inspect --recover exits 130 on %s while it reads a long run",
    async (signal) => {
      await writeLongRun(dir.path, 1, 100_000);
      const result = await interrupted(["inspect", "--recover", "--write", dir.path], signal);
      expect(result.signalled).toBe(true);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(130);
      expect(result.stdout).toBe("");
    },
  );
});
