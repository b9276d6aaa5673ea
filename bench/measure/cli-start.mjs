// 3. CLI start: median wall time of `agentchaos --version` and `agentchaos validate <scenario>`
// against `node -e 0`, RUNS runs each, interleaved so that machine noise hits all three alike.

import { CLI, ROOT } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";

const RUNS = 10;
const COMMANDS = {
  node: ["-e", "0"],
  version: [CLI, "--version"],
  validate: [CLI, "validate", "examples/scenarios/api_503_recovery.yaml"],
};

export async function cliStart() {
  const samples = { node: [], version: [], validate: [] };
  const failures = {};
  for (const args of Object.values(COMMANDS)) await runCommand(process.execPath, args, { cwd: ROOT }); // warm the file cache
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, args] of Object.entries(COMMANDS)) {
      const { code, wallMs } = await runCommand(process.execPath, args, { cwd: ROOT, timeoutMs: 10_000 });
      if (code !== 0) failures[name] = code;
      samples[name].push(wallMs);
    }
  }
  const result = { runs: RUNS };
  for (const [name, runs] of Object.entries(samples)) result[name] = { medianMs: round(median(runs), 1) };
  result.versionRatioVsNode = round(result.version.medianMs / result.node.medianMs, 2);
  result.validateRatioVsNode = round(result.validate.medianMs / result.node.medianMs, 2);
  // A command that failed measured nothing worth comparing.
  if (Object.keys(failures).length > 0) throw new Error(`non-zero exits: ${JSON.stringify(failures)}`);
  return result;
}
