/**
 * `junit.xml` (docs/suites.md): one `<testsuite name="agentchaos">` inside `<testsuites>`, one
 * `<testcase>` per entry. FAILED entries get `<failure>`, setup errors (exit-3 reasons) and
 * invalid scenarios `<error>`; every user text is escaped (xml.ts). An entry with trials is one
 * test case too: its failure message is the trials' summary line (class and counts), its
 * `<system-out>` one line per trial (see docs/trials.md).
 */
import type { SuiteEntry } from "../../report/suite-document.js";
import { trialRunLine, trialsLine } from "../../report/trials.js";
import type { SuiteView } from "../entry-details.js";
import { xmlAttribute as attr, xmlText as text } from "./xml.js";

/** Reasons reported as `<error>` rather than `<failure>`: the run could not be carried out. */
const ERROR_REASONS = new Set([
  "DEPENDENCY_START_FAILED",
  "PROXY_START_FAILED",
  "WORKLOAD_SPAWN_FAILED",
  "INTERNAL_ERROR",
  "SCENARIO_INVALID",
  "REPLAY_MISMATCH",
]);

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function isError(entry: SuiteEntry): boolean {
  if (entry.trials !== undefined) return entry.result === "FAILED" && entry.exit_code === 3;
  return entry.result === "FAILED" && ERROR_REASONS.has(entry.reason_code);
}

/** The trial properties of an entry with trials (none otherwise). */
function trialProperties(entry: SuiteEntry): string[] {
  const trials = entry.trials;
  if (trials === undefined) return [];
  const values: [string, string][] = [
    ["trials", String(trials.trials)],
    ["passed", String(trials.passed)],
    ["pass_rate", String(trials.pass_rate)],
    ["class", trials.class],
    ["min_pass_rate", String(trials.min_pass_rate)],
  ];
  return values.map(([name, value]) => `        <property name="${name}" value="${attr(value)}"/>`);
}

/** The failure of an entry: its reason, or for trials the summary line with the failed trials as body. */
function failureOf(entry: SuiteEntry, diagnostics: readonly string[]): string {
  const tag = isError(entry) ? "error" : "failure";
  const trials = entry.trials;
  if (trials !== undefined) {
    const failed = trials.runs
      .filter((run) => run.result === "FAILED")
      .map((run) => trialRunLine(run, trials.trials, { folder: true }));
    return `      <${tag} message="${attr(trialsLine(trials))}" type="${attr(trials.class)}">${text(failed.join("\n"))}</${tag}>`;
  }
  const body = diagnostics.length === 0 ? entry.reason_code : diagnostics.join("\n");
  return `      <${tag} message="${attr(entry.reason_code)}" type="${attr(entry.reason_code)}">${text(body)}</${tag}>`;
}

function testcase(
  entry: SuiteEntry,
  diagnostics: readonly string[],
  summary: string,
  classname: string,
): string {
  const lines = [
    `    <testcase name="${attr(entry.name)}" classname="${attr(classname)}" time="${seconds(entry.duration_ms)}">`,
    "      <properties>",
    `        <property name="result" value="${attr(entry.result)}"/>`,
    `        <property name="reason_code" value="${attr(entry.reason_code)}"/>`,
    `        <property name="run_folder" value="${attr(entry.run_folder ?? "")}"/>`,
    ...trialProperties(entry),
    "      </properties>",
  ];
  if (entry.result === "FAILED") lines.push(failureOf(entry, diagnostics));
  if (summary !== "") lines.push(`      <system-out>${text(summary)}</system-out>`);
  lines.push("    </testcase>");
  return lines.join("\n");
}

/** The JUnit XML document; `classname` is the entry's path (suites) or the scenario name (a single run). */
export function renderJunit(view: SuiteView, options: { readonly classname: "path" | "name" }): string {
  const { document, details } = view;
  const entries = document.entries;
  const failures = entries.filter((entry) => entry.result === "FAILED" && !isError(entry)).length;
  const errors = entries.filter(isError).length;
  const time = seconds(Date.parse(document.finished_at) - Date.parse(document.started_at) || 0);
  const counts = `tests="${entries.length}" failures="${failures}" errors="${errors}" skipped="0" time="${time}"`;
  const cases = entries.map((entry, index) => {
    const detail = details[index];
    return testcase(
      entry,
      detail?.diagnostics ?? [],
      detail?.summary ?? "",
      options.classname === "path" ? entry.path : entry.name,
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agentchaos" ${counts}>`,
    `  <testsuite name="agentchaos" ${counts} timestamp="${attr(document.started_at)}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
