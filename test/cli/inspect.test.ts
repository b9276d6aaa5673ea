import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Captured, runInProcess } from "../helpers/in-process.js";

const VALID = join(import.meta.dirname, "..", "fixtures", "reports", "valid");
const INVALID = join(import.meta.dirname, "..", "fixtures", "reports", "invalid");

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "agentchaos-inspect-")));
});

afterEach(async () => {
  await chmod(dir, 0o700).catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

function inspect(target: string, cwd = dir): Promise<Captured> {
  return runInProcess(["inspect", target], cwd);
}

async function copyFixture(folder: string, name: string, to = join(dir, "report.json")): Promise<string> {
  await copyFile(join(folder, `${name}.json`), to);
  return to;
}

describe("agentchaos inspect", () => {
  it("prints the summary of a valid report and exits 0 even when the run FAILED", async () => {
    await copyFixture(VALID, "v2-failed-schedule-incomplete");
    const { code, stdout, stderr } = await inspect(dir);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toContain("Result: FAILED\nReason: FAULT_SCHEDULE_INCOMPLETE\n");
    expect(stdout.endsWith(`\nReport:\n${join(dir, "report.json")}\n`)).toBe(true);
  });

  it("prints a schema-4 summary with its dependencies, faults, checks and diagnostics", async () => {
    await copyFixture(VALID, "v4-failed-retry-after");
    const { code, stdout, stderr } = await inspect(dir);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("Dependency llm:         http, 2 operations, 1 failed\n");
    expect(stdout).toContain("Fault llm-429:          http_rate_limit on llm, injected 1/1\n");
    expect(stdout).toContain("Check retry_after:      1 finding\n");
    expect(stdout).toContain("Check retry_storm:      passed (report only)\n");
    expect(stdout).toContain(
      "\nDiagnostics:\n  operation 82f3e9c6-95dc-4b8d-ab11-818d5701919e was retried 52 ms",
    );
  });

  it("resolves a relative target against the working directory it is given", async () => {
    await mkdir(join(dir, "runs", "20261129T183821Z-1a2b3c4d"), { recursive: true });
    const path = await copyFixture(
      VALID,
      "v3-recovered-probability",
      join(dir, "runs", "20261129T183821Z-1a2b3c4d", "report.json"),
    );
    const byFolder = await inspect("runs/20261129T183821Z-1a2b3c4d");
    const byFile = await inspect("runs/20261129T183821Z-1a2b3c4d/report.json");
    expect(byFolder.code).toBe(0);
    expect(byFolder.stdout).toContain("Window evaluations:    5/5\nFaults injected:       2\n");
    expect(byFolder.stdout.endsWith(`\n${path}\n`)).toBe(true);
    expect(byFile.stdout).toBe(byFolder.stdout);
  });

  it("leaves the report's bytes and modification time untouched and writes nothing else", async () => {
    const path = await copyFixture(VALID, "v3-recovered-max-seed");
    const old = new Date("2026-11-30T10:23:46.000Z");
    await utimes(path, old, old);
    const before = await readFile(path);
    expect((await inspect(path)).code).toBe(0);
    expect(await readFile(path)).toEqual(before);
    expect((await stat(path)).mtimeMs).toBe(old.getTime());
    expect(await readdir(dir)).toEqual(["report.json"]);
  });

  it.each<[string, (dir: string) => Promise<string>, string]>([
    ["a missing file", async (d) => join(d, "nothing.json"), "Report not found."],
    ["a run folder without report.json", async (d) => d, "Report not found."],
    [
      "a folder where report.json should be",
      async (d) => {
        await mkdir(join(d, "report.json"));
        return d;
      },
      "Report is unreadable.",
    ],
    [
      "a path that goes through a file",
      async (d) => {
        await writeFile(join(d, "stdout.log"), "hello\n");
        return join(d, "stdout.log", "report.json");
      },
      "Report is unreadable.",
    ],
    [
      "text that is not JSON",
      async (d) => {
        await writeFile(join(d, "report.json"), "Experiment complete.\n");
        return d;
      },
      "Report is malformed JSON.",
    ],
    [
      "a JSON array",
      async (d) => {
        await writeFile(join(d, "report.json"), "[]\n");
        return d;
      },
      "Report schema is invalid.",
    ],
  ])("refuses %s with exit 2 and the message of docs/reports.md", async (_title, prepare, message) => {
    const { code, stdout, stderr } = await inspect(await prepare(dir));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(`Cannot inspect report: ${message}\n`);
  });

  it.runIf(process.getuid?.() !== 0)("refuses a file without read permission as unreadable", async () => {
    const path = await copyFixture(VALID, "v2-passed-baseline");
    await chmod(path, 0o000);
    const { code, stderr } = await inspect(path);
    expect(code).toBe(2);
    expect(stderr).toBe("Cannot inspect report: Report is unreadable.\n");
  });

  it.each<[string, string]>([
    ["missing", ""],
    ["6", '"schema_version": 6,'],
    ['"2"', '"schema_version": "2",'],
  ])("refuses schema_version %s as unsupported", async (_title, line) => {
    const text = (await readFile(join(VALID, "v2-passed-baseline.json"), "utf8")).replace(
      '"schema_version": 2,',
      line,
    );
    await writeFile(join(dir, "report.json"), text);
    const { code, stderr } = await inspect(dir);
    expect(code).toBe(2);
    expect(stderr).toBe("Cannot inspect report: Report schema version is unsupported.\n");
  });

  it("refuses every invalid fixture as an invalid schema with exit 2", async () => {
    const names = (await readdir(INVALID)).filter((name) => name.endsWith(".json"));
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) {
      const { code, stdout, stderr } = await inspect(join(INVALID, name));
      expect({ name, code, stdout }).toEqual({ name, code: 2, stdout: "" });
      expect(stderr.startsWith("Cannot inspect report: Report schema is invalid.")).toBe(true);
      expect(stderr.endsWith("\n")).toBe(true);
    }
  });
});
