import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SuiteDocument } from "../../src/report/suite-document.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";

const dir = testFolder("each");

describe.runIf(process.platform === "linux")("suite reads regular scenario files only", () => {
  it("marks a scenario that is a FIFO invalid at once instead of waiting on it", async () => {
    execFileSync("mkfifo", [join(dir.path, "pipe.yaml")]);
    const out = join(dir.path, "out");
    const result = await runBuiltCli(["suite", "pipe.yaml", "--output-dir", out], {
      cwd: dir.path,
      timeoutMs: 20_000,
    });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const [suite] = await readdir(out);
    const document = JSON.parse(
      await readFile(join(out, suite as string, "suite.json"), "utf8"),
    ) as SuiteDocument;
    expect(document.entries.map((entry) => [entry.path, entry.reason_code, entry.problems])).toEqual([
      ["pipe.yaml", "SCENARIO_INVALID", ["is not a regular file (a FIFO)"]],
    ]);
  });
});
