// Checks a suite of the bundled examples: every scenario listed in the expectations file (paths
// relative to that file) ran and ended with its expected result and reason, no other scenario
// ran, and the reporters' files are there. Usage: node .ci/check-outcomes.mjs <suite-folder> <expected.json>
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const [folder, expectedFile] = process.argv.slice(2);
const suite = JSON.parse(readFileSync(join(folder, "suite.json"), "utf8"));
const expected = JSON.parse(readFileSync(expectedFile, "utf8"));
const base = dirname(resolve(expectedFile));
const problems = [];
const seen = new Set();
for (const entry of suite.entries) {
  const key = resolve(entry.path);
  const relativeKey = Object.keys(expected).find((name) => resolve(base, name) === key);
  if (relativeKey === undefined) {
    problems.push(`${entry.path}: ran but has no expected outcome`);
    continue;
  }
  seen.add(relativeKey);
  const want = expected[relativeKey];
  if (entry.result !== want.result || entry.reason_code !== want.reason_code) {
    problems.push(
      `${entry.path}: ${entry.result} / ${entry.reason_code}, expected ${want.result} / ${want.reason_code}`,
    );
  }
}
for (const name of Object.keys(expected))
  if (!seen.has(name)) problems.push(`${name}: expected but did not run`);
for (const file of ["junit.xml", "ctrf.json", "index.html"]) {
  if (!existsSync(join(folder, file))) problems.push(`${file} was not written`);
}
if (suite.interrupted) problems.push("the suite was interrupted");
if (problems.length > 0) {
  process.stderr.write(`Bundled examples suite: ${problems.length} problem(s)\n${problems.join("\n")}\n`);
  process.exit(1);
}
process.stdout.write(`Bundled examples suite: all ${suite.entries.length} scenarios ended as expected.\n`);
