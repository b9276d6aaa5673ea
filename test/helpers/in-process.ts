import { runCli } from "../../src/cli/index.js";
import { capturedIo } from "./captured-io.js";

export interface Captured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI core in-process with captured streams, as the bin would with real ones. */
export async function runInProcess(argv: readonly string[], cwd: string = process.cwd()): Promise<Captured> {
  const { io, text } = capturedIo(cwd);
  const code = await runCli(argv, io);
  return { code, ...text() };
}
