import { execFileSync } from "node:child_process";
import { copyFile, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPORT_LIMITS } from "../../src/report/limits.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";

const VALID = join(import.meta.dirname, "..", "fixtures", "reports", "valid");
const dir = testFolder("each");

describe("inspect reads regular files only", () => {
  it("refuses a FIFO at once instead of blocking on it", async () => {
    const fifo = join(dir.path, "report.json");
    execFileSync("mkfifo", [fifo]);
    const result = await runBuiltCli(["inspect", fifo], { timeoutMs: 20_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("Cannot inspect report: Report is unreadable. It is not a regular file.\n");
  });

  it("refuses a run folder whose report.json is a FIFO", async () => {
    execFileSync("mkfifo", [join(dir.path, "report.json")]);
    const result = await runBuiltCli(["inspect", dir.path], { timeoutMs: 20_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
  });

  it("refuses a symlink to /dev/zero without reading from it", async () => {
    const link = join(dir.path, "report.json");
    await symlink("/dev/zero", link);
    const result = await runBuiltCli(["inspect", link], { timeoutMs: 20_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("Cannot inspect report: Report is unreadable. It is not a regular file.\n");
  });

  it("refuses a report over 16 MiB and reads one just under it", async () => {
    const report = join(dir.path, "report.json");
    const valid = JSON.parse(
      await import("node:fs/promises").then((fs) =>
        fs.readFile(join(VALID, "v2-passed-baseline.json"), "utf8"),
      ),
    ) as Record<string, unknown>;
    const text = JSON.stringify(valid, null, 2);
    await writeFile(report, `${text}${" ".repeat(REPORT_LIMITS.maxBytes - text.length)}`);
    expect((await runInProcess(["inspect", report])).code).toBe(0);
    await writeFile(report, `${text}${" ".repeat(REPORT_LIMITS.maxBytes - text.length + 1)}`);
    const refused = await runInProcess(["inspect", report]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "Cannot inspect report: Report is unreadable. It is larger than the 16 MiB limit.\n",
    );
  });

  it("still reads a symlink to a regular report", async () => {
    await mkdir(join(dir.path, "real"));
    await copyFile(join(VALID, "v2-passed-baseline.json"), join(dir.path, "real", "report.json"));
    await symlink(join(dir.path, "real", "report.json"), join(dir.path, "link.json"));
    const result = await runInProcess(["inspect", join(dir.path, "link.json")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(join(dir.path, "real", "report.json"));
  });
});
