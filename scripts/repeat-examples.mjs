#!/usr/bin/env node
// Runs bundled examples several times in a row through the built CLI (one suite per round,
// `--jobs 1` unless told otherwise) and counts, per example, the rounds in which it ended as its
// row of examples/scenarios/expected-outcomes.json. An example that misses its row in any round
// is flaky: a bug in the example or in the product.
//
//   node scripts/repeat-examples.mjs [--times N] [--jobs N] <scenario-or-folder>...
//
// Without paths: the lifecycle, MCP session-fault and model-fault examples. Exit 0 when every
// example ended as its row in every round, 1 otherwise, 2 on bad arguments.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist/bin/agentchaos.js");
const EXPECTED_FILE = join(ROOT, "examples/scenarios/expected-outcomes.json");
const DEFAULT_PATHS = [
  "examples/scenarios/v2/lifecycle",
  "examples/scenarios/v2/model-faults",
  "examples/mcp/scenarios/stdio_no_response_hung.yaml",
  "examples/mcp/scenarios/stdio_no_response_fail_fast_recovered.yaml",
  "examples/mcp/scenarios/stdio_no_response_not_cancelled.yaml",
  "examples/mcp/scenarios/stdio_malformed_recovered.yaml",
  "examples/mcp/scenarios/stdio_tools_changed_relist.yaml",
  "examples/mcp/scenarios/stdio_tools_changed_stale.yaml",
  "examples/mcp/scenarios/http_malformed_recovered.yaml",
  "examples/mcp/scenarios/http_tools_changed_relist.yaml",
  "examples/mcp/scenarios/http_tools_changed_stale.yaml",
  "examples/mcp/scenarios/http_no_response_hung.yaml",
  "examples/mcp/scenarios/http_no_response_fail_fast_recovered.yaml",
  "examples/mcp/scenarios/http_no_response_not_cancelled.yaml",
  "examples/mcp/scenarios/stdio_latency_cancelled_recovered.yaml",
  "examples/mcp/scenarios/stdio_latency_not_cancelled.yaml",
  "examples/mcp/scenarios/stdio_no_response_abort_signal_recovered.yaml",
];

function fail(message) {
  process.stderr.write(`repeat-examples: ${message}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: { times: { type: "string", default: "5" }, jobs: { type: "string", default: "1" } },
    allowPositionals: true,
  });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const times = Number(parsed.values.times);
if (!Number.isInteger(times) || times < 1) fail("--times needs a whole number of at least 1");
if (!/^\d+$/.test(parsed.values.jobs)) fail("--jobs needs a whole number");
const paths = parsed.positionals.length > 0 ? parsed.positionals : DEFAULT_PATHS;

const expectedBase = dirname(EXPECTED_FILE);
const expected = new Map(
  Object.entries(JSON.parse(readFileSync(EXPECTED_FILE, "utf8"))).map(([name, row]) => [
    resolve(expectedBase, name),
    row,
  ]),
);
const tally = new Map();
const out = mkdtempSync(join(tmpdir(), "agentchaos-repeat-"));
try {
  for (let round = 1; round <= times; round++) {
    const dir = join(out, String(round));
    const suite = spawnSync(
      process.execPath,
      [CLI, "suite", ...paths, "--jobs", parsed.values.jobs, "--quiet", "--output-dir", dir],
      { cwd: ROOT, encoding: "utf8" },
    );
    if (suite.status !== 0 && suite.status !== 1) {
      process.stderr.write(suite.stderr);
      fail(`round ${round}: the suite exited ${suite.status}`);
    }
    const [folder] = readdirSync(dir);
    const { entries } = JSON.parse(readFileSync(join(dir, folder, "suite.json"), "utf8"));
    const misses = [];
    for (const entry of entries) {
      const key = resolve(ROOT, entry.path);
      const want = expected.get(key);
      const counts = tally.get(key) ?? { asRow: 0, runs: 0, seen: [] };
      tally.set(key, counts);
      counts.runs += 1;
      const ended = `${entry.result} / ${entry.reason_code}`;
      if (want !== undefined && entry.result === want.result && entry.reason_code === want.reason_code)
        counts.asRow += 1;
      else {
        counts.seen.push(`round ${round}: ${ended}`);
        misses.push(relative(ROOT, key));
      }
    }
    process.stdout.write(
      `round ${round}: ${entries.length - misses.length}/${entries.length} as their row${misses.length > 0 ? ` (missed: ${misses.join(", ")})` : ""}\n`,
    );
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

let flaky = 0;
for (const [key, counts] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
  const row = expected.get(key);
  const want = row === undefined ? "no row" : `${row.result} / ${row.reason_code}`;
  process.stdout.write(`${counts.asRow}/${counts.runs}  ${relative(ROOT, key)}  (${want})\n`);
  for (const seen of counts.seen) process.stdout.write(`        ${seen}\n`);
  if (counts.asRow !== times) flaky += 1;
}
process.stdout.write(
  flaky === 0
    ? `every example ended as its row in all ${times} rounds\n`
    : `${flaky} example(s) did not end as their row every time\n`,
);
process.exitCode = flaky === 0 ? 0 : 1;
