import { execFileSync } from "node:child_process";
import { cp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPORT_LIMITS } from "../../src/report/limits.js";
import { type CliResult, runBuiltCli, testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";

const FIXTURE_V4 = join(import.meta.dirname, "..", "fixtures", "runs", "v4-three-dependencies");
const dir = testFolder("each");
/** A refused file is refused at once: far sooner than this, which only stops a hung process. */
const DEADLINE_MS = 20_000;

function fifo(path: string): void {
  execFileSync("mkfifo", [path]);
}

/** A copy of a saved schema-4 run folder, with `name` replaced by a FIFO. */
async function runFolderWithFifo(name: string): Promise<string> {
  const folder = join(dir.path, "run");
  await cp(FIXTURE_V4, folder, { recursive: true });
  await rm(join(folder, name), { force: true });
  fifo(join(folder, name));
  return folder;
}

/** Exit 2 with exactly `message`, no hang (not killed at the deadline), no stack trace. */
function expectRefused(result: CliResult, message: string): void {
  expect(result.signal).toBeNull();
  expect(result.stderr).toBe(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.code).toBe(2);
}

describe.runIf(process.platform === "linux")("report reads regular files only", () => {
  it.each(["html", "junit", "ctrf", "json"])(
    "refuses a run folder whose report.json is a FIFO (--format %s) at once, with exit 2",
    async (format) => {
      const folder = await runFolderWithFifo("report.json");
      const result = await runBuiltCli(["report", folder, "--format", format], { timeoutMs: DEADLINE_MS });
      expectRefused(result, `Cannot render report: ${folder}: report.json is a FIFO, not a regular file\n`);
      expect(result.stdout).toBe("");
    },
  );

  it("refuses report.json given as a path when it is a FIFO", async () => {
    const folder = await runFolderWithFifo("report.json");
    const target = join(folder, "report.json");
    const result = await runBuiltCli(["report", target, "--format", "html"], { timeoutMs: DEADLINE_MS });
    expectRefused(result, `Cannot render report: ${target}: report.json is a FIFO, not a regular file\n`);
  });

  it("refuses a run folder whose events.jsonl is a FIFO when drawing its page", async () => {
    const folder = await runFolderWithFifo("events.jsonl");
    const output = join(dir.path, "page.html");
    const result = await runBuiltCli(["report", folder, "--format", "html", "--output", output], {
      timeoutMs: DEADLINE_MS,
    });
    expectRefused(result, `Cannot render report: ${folder}: events.jsonl is a FIFO, not a regular file\n`);
  });

  it("refuses a suite folder whose suite.json is a FIFO, for report and merge", async () => {
    fifo(join(dir.path, "suite.json"));
    const report = await runBuiltCli(["report", dir.path, "--format", "junit"], { timeoutMs: DEADLINE_MS });
    expectRefused(report, `Cannot render report: ${dir.path}: suite.json is a FIFO, not a regular file\n`);
    const merged = await runBuiltCli(["merge", dir.path, "--output-dir", join(dir.path, "merged")], {
      timeoutMs: DEADLINE_MS,
    });
    expect(merged.signal).toBeNull();
    expect(merged.code).toBe(2);
    expect(merged.stderr).toContain("suite.json is a FIFO, not a regular file");
  });

  it("refuses a report.json that is a device, without reading from it", async () => {
    const folder = join(dir.path, "run");
    await cp(FIXTURE_V4, folder, { recursive: true });
    await rm(join(folder, "report.json"));
    await symlink("/dev/zero", join(folder, "report.json"));
    const result = await runBuiltCli(["report", folder, "--format", "json"], { timeoutMs: DEADLINE_MS });
    expectRefused(result, `Cannot render report: ${folder}: report.json is a device, not a regular file\n`);
  });
});

describe("report bounds what it reads", () => {
  it("refuses a report.json over the 16 MiB report limit", async () => {
    const folder = join(dir.path, "run");
    await cp(FIXTURE_V4, folder, { recursive: true });
    await writeFile(join(folder, "report.json"), " ".repeat(REPORT_LIMITS.maxBytes + 1));
    const result = await runInProcess(["report", folder, "--format", "ctrf"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `Cannot render report: ${folder}: report.json is larger than the 16 MiB limit\n`,
    );
  });

  it("refuses an events.jsonl line over the line limit, naming the line", async () => {
    const folder = join(dir.path, "run");
    await cp(FIXTURE_V4, folder, { recursive: true });
    const huge = `{"type":"OPERATION_OBSERVED","padding":"${"x".repeat(65 * 1024 * 1024)}"}`;
    await writeFile(join(folder, "events.jsonl"), `{}\n{}\n${huge}\n{}\n`);
    const result = await runBuiltCli(["report", folder, "--format", "html"], { timeoutMs: 60_000 });
    expectRefused(
      result,
      `Cannot render report: ${folder}: events.jsonl has a line longer than the 65 MiB limit (line 3)\n`,
    );
  });
});

describe("report reads report.json strictly, into the typed report", () => {
  /** A copy of the schema-4 run folder whose report.json is edited by `edit`. */
  async function editedRun(edit: (text: string) => string): Promise<string> {
    const folder = join(dir.path, "run");
    await cp(FIXTURE_V4, folder, { recursive: true });
    const text = await readFile(join(folder, "report.json"), "utf8");
    await writeFile(join(folder, "report.json"), edit(text));
    return folder;
  }

  it.each(["html", "junit", "ctrf", "json"])(
    "refuses a report.json of the wrong shape (--format %s) with the reader's error and exit 2",
    async (format) => {
      const folder = await editedRun((text) => text.replace('"id": "llm-overloaded"', '"id": "Not An Id"'));
      const result = await runInProcess(["report", folder, "--format", format]);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr: `Cannot render report: ${folder}: Report schema is invalid. Offending key: faults[0].id\n`,
      });
    },
  );

  it("refuses a report.json that breaks a consistency rule, naming the key", async () => {
    const folder = await editedRun((text) => text.replace('"faults_injected": 3,', '"faults_injected": 1,'));
    const result = await runInProcess(["report", folder, "--format", "html"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^Cannot render report: ${folder}: Report schema is invalid\\. Offending key: [a-z_.\\[\\]0-9]+\\n$`,
      ),
    );
  });

  it("renders the unedited report in every format", async () => {
    const folder = await editedRun((text) => text);
    for (const format of ["html", "junit", "ctrf", "json"]) {
      const result = await runInProcess(["report", folder, "--format", format]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe("");
    }
  });
});
