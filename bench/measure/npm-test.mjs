// `npm test` on this machine, wall time: the whole test suite, run last by `npm run bench` (about
// three minutes; AGENTCHAOS_BENCH_NPM_TEST=0 leaves it out), with the machine's own environment.
import { ROOT } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { round } from "../lib/stats.mjs";

const TIMEOUT_MS = 1_100_000;

export async function npmTest(env) {
  const run = await runCommand("npm", ["test"], { cwd: ROOT, env, timeoutMs: TIMEOUT_MS });
  return { code: run.code, seconds: round(run.wallMs / 1000, 1) };
}
