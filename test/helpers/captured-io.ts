import type { CliIo } from "../../src/support/cli-io.js";

/** CLI streams that keep what is written to them, for a test to read afterwards. */
export function capturedIo(cwd: string): {
  readonly io: CliIo;
  readonly text: () => { readonly stdout: string; readonly stderr: string };
} {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    env: {},
  };
  return { io, text: () => ({ stdout, stderr }) };
}
