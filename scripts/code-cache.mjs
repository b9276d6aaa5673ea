// Writes V8's code cache of the `agentchaos` executable (dist/bin/code-cache/, see
// src/bin/code-cache.ts and docs/performance.md#third-pass-how-the-executables-code-is-loaded):
// runs the commands most starts are made of (help, validate, a run whose dependency is
// `agentchaos fake-llm`, inspect, an HTML report) with AGENTCHAOS_WRITE_CODE_CACHE=1, one after
// the other, so that each adds the functions it ran to the cache the ones before it wrote. Run
// by `npm run build` after tsdown. A command that fails leaves a smaller cache, never a broken
// build: V8 compiles what the cache lacks.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = process.cwd();
const bin = join(root, "dist", "bin", "agentchaos.js");
const cache = join(root, "dist", "bin", "code-cache");
const scenario = join(root, "examples", "scenarios", "v2", "support_baseline.yaml");
const work = mkdtempSync(join(tmpdir(), "agentchaos-code-cache-"));
const runs = join(work, "runs");

function agentchaos(...args) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    env: { ...process.env, AGENTCHAOS_WRITE_CODE_CACHE: "1", NO_COLOR: "1" },
    stdio: "ignore",
    timeout: 60_000,
  });
  if (result.status !== 0 && result.status !== 1) {
    process.stderr.write(`code cache: 'agentchaos ${args[0]}' exited ${result.status ?? result.signal}\n`);
  }
}

try {
  mkdirSync(cache, { recursive: true });
  agentchaos("--help");
  agentchaos("validate", scenario);
  agentchaos("run", scenario, "--output-dir", runs);
  const [run] = readdirSync(runs);
  if (run !== undefined) {
    agentchaos("inspect", join(runs, run));
    agentchaos("report", join(runs, run), "--format", "html", "--output", join(work, "report.html"));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
