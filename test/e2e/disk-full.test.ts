import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLegacyEventLine } from "../../src/events/reader.js";
import { groupAlive } from "../../src/support/process-group.js";
import { onlyRunDir, runBuiltCli } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { childrenOf } from "../helpers/processes.js";
import { fixtureDependency, freePort, writeScenario, yamlList } from "../helpers/scenario-files.js";

/** A 512 KiB tmpfs, mounted when the tests run as root (and the system allows it). */
function mountSmallDisk(path: string): boolean {
  if (process.getuid?.() !== 0 || process.platform !== "linux") return false;
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", path], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let base = "";
let disk = "";
let mounted = false;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "agentchaos-disk-"));
  disk = join(base, "disk");
  execFileSync("mkdir", [disk]);
  mounted = mountSmallDisk(disk);
});

afterAll(async () => {
  if (mounted) execFileSync("umount", ["-l", disk]);
  await rm(base, { recursive: true, force: true });
});

describe("a disk that fills up during a run", () => {
  it("ends the run with exit 3 and one line naming the file, every process stopped, events kept", async (context) => {
    if (!mounted) context.skip();
    const port = await freePort();
    const workload = [
      process.execPath,
      "-e",
      "process.stdout.write('x'.repeat(2e6)); setInterval(() => {}, 1000)",
    ];
    const file = await writeScenario(
      base,
      "disk-full",
      `schema_version: 1
name: disk-full
${fixtureDependency(port)}workload:
  command: ${yamlList(workload)}
success:
  exit_code: 0
timeout_seconds: 30
`,
    );
    const out = join(disk, "runs");
    // The processes the run started: those seen as its children while it printed, and those its
    // events name (the run may print its last line before the workload starts).
    const seen = new Set<number>();
    const result = await runBuiltCli(["run", file, "--output-dir", out], {
      timeoutMs: 25_000,
      onStdout: (_, child) => {
        if (child.pid !== undefined) for (const pid of childrenOf(child.pid)) seen.add(pid);
      },
    });
    expect(result.code).toBe(3);
    const lines = result.stderr.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Run failed: could not write stdout\.log \(ENOSPC\)\. Every process was stopped; /,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // The events written before the disk filled up are a valid prefix.
    const text = await readFile(join(onlyRunDir(out), "events.jsonl"), "utf8");
    const complete = text
      .slice(0, text.lastIndexOf("\n") + 1)
      .split("\n")
      .slice(0, -1);
    expect(complete.length).toBeGreaterThanOrEqual(4);
    for (const [index, line] of complete.entries()) {
      const { payload } = parseLegacyEventLine(line, index + 1);
      if ("pid" in payload && typeof payload.pid === "number") seen.add(payload.pid);
    }
    const processes = [...seen];
    expect(processes.length).toBeGreaterThanOrEqual(2);
    await eventually(() => processes.every((pid) => !groupAlive(pid)), {
      what: "every process it started ended",
    });
    // … and the verdict they support can be read.
    const recovered = await runBuiltCli(["inspect", "--recover", onlyRunDir(out)]);
    expect(recovered.code).toBe(0);
    expect(recovered.stdout).toContain("Result: FAILED\nReason: INTERNAL_ERROR\n");
  });
});
