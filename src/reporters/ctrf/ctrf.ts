/**
 * `ctrf.json` (docs/suites.md): the Common Test Report Format, valid against the JSON Schema of the
 * `ctrf` package 0.3.x (spec version 0.0.0). An entry with trials also carries `flaky` (its
 * class is `flaky`) and `retries` (trials − 1), and the summary counts the flaky ones.
 */
import { packageVersion } from "../../support/version.js";
import type { SuiteView } from "../entry-details.js";

export const CTRF_SPEC_VERSION = "0.0.0";

function epochMs(iso: string): number {
  const value = Date.parse(iso);
  return Number.isFinite(value) ? value : 0;
}

/** The CTRF document as text (two spaces, final newline). */
export function renderCtrf(view: SuiteView): string {
  const { document, details } = view;
  const tests = document.entries.map((entry, index) => {
    const diagnostics = details[index]?.diagnostics ?? [];
    return {
      name: entry.name === "" ? entry.path : entry.name,
      status: entry.result === "FAILED" ? "failed" : "passed",
      duration: entry.duration_ms,
      message: [entry.reason_code, ...diagnostics].join("\n"),
      rawStatus: entry.result,
      filePath: entry.path,
      ...(entry.trials === undefined
        ? {}
        : { flaky: entry.trials.class === "flaky", retries: Math.max(0, entry.trials.trials - 1) }),
      extra: {
        result: entry.result,
        reason_code: entry.reason_code,
        run_folder: entry.run_folder,
        ...(entry.trials === undefined
          ? {}
          : {
              trials: {
                trials: entry.trials.trials,
                passed: entry.trials.passed,
                pass_rate: entry.trials.pass_rate,
                wilson_95: entry.trials.wilson_95,
                class: entry.trials.class,
                min_pass_rate: entry.trials.min_pass_rate,
              },
            }),
      },
    };
  });
  const withTrials = document.entries.some((entry) => entry.trials !== undefined);
  const failed = tests.filter((test) => test.status === "failed").length;
  const start = epochMs(document.started_at);
  const stop = epochMs(document.finished_at);
  const ctrf = {
    reportFormat: "CTRF",
    specVersion: CTRF_SPEC_VERSION,
    timestamp: document.finished_at,
    generatedBy: "agentchaos",
    results: {
      tool: { name: "agentchaos", version: packageVersion() },
      summary: {
        tests: tests.length,
        passed: tests.length - failed,
        failed,
        pending: 0,
        skipped: 0,
        other: 0,
        ...(withTrials ? { flaky: tests.filter((test) => test.flaky === true).length } : {}),
        start,
        stop,
        duration: Math.max(0, stop - start),
      },
      tests,
      extra: { suite_id: document.suite_id, interrupted: document.interrupted, shard: document.shard },
    },
  };
  return `${JSON.stringify(ctrf, null, 2)}\n`;
}
