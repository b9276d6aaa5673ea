// `npm test` on this machine, wall time: opt-in (`node bench/run.mjs npmTest`), as it runs the
// whole test suite, which `npm run bench` does not do by default.
import { ROOT } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { round } from "../lib/stats.mjs";

const TIMEOUT_MS = 1_100_000;

export async function npmTest() {
  const run = await runCommand("npm", ["test"], { cwd: ROOT, timeoutMs: TIMEOUT_MS });
  return { code: run.code, seconds: round(run.wallMs / 1000, 1) };
}
