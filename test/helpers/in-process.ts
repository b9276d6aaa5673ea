import { runCli } from "../../src/cli/index.js";
import type { CliIo } from "../../src/support/cli-io.js";

export interface Captured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI core in-process with captured streams, as the bin would with real ones. */
export async function runInProcess(argv: readonly string[], cwd: string = process.cwd()): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    env: {},
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
