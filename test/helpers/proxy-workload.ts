/** A real workload process for ordering tests: it fetches one URL and prints when the response ended. */
import { spawn } from "node:child_process";
import { onCleanup } from "./proxy-harness.js";

const SCRIPT = `
const response = await fetch(process.argv[1]);
await response.arrayBuffer();
process.stdout.write(String(Date.now()));
`;

/** Resolves with the child's wall-clock time (ms) at which it had the complete response. */
export function fetchInChild(url: string): Promise<number> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", SCRIPT, url], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Number(stdout));
      else reject(new Error(`workload exited with ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}

/** Blocks the current thread for `ms` (the proxy runs on it, so nothing else happens meanwhile). */
export function blockThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
