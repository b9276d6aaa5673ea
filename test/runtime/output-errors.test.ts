import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManagedProcess } from "../../src/runtime/child-process.js";
import { tempDir } from "../helpers/temp.js";

describe.runIf(process.platform === "linux")("a log file that cannot be written (disk full)", () => {
  let dir: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it("is reported once by name and code, while the output is still drained and echoed", async () => {
    const errors: string[] = [];
    const lines: string[] = [];
    const child = await ManagedProcess.start({
      spec: {
        command: [
          process.execPath,
          "-e",
          'for (let i = 0; i < 2000; i++) console.log("line " + "y".repeat(500))',
        ],
        cwd: dir.path,
        env: {},
      },
      stdoutPath: "/dev/full",
      stderrPath: join(dir.path, "err.log"),
      onLine: (_, line) => lines.push(line),
      onOutputError: (file, code) => errors.push(`${file} ${code}`),
    });
    const exit = await child.reap();
    expect(exit.exitCode).toBe(0);
    expect(errors).toEqual(["full ENOSPC"]);
    expect(lines.length).toBe(2000);
  });
});
