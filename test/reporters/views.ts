import type { SuiteEntry } from "../../src/report/suite-document.js";
import { summarizeTrials, type TrialRun } from "../../src/report/trials.js";
import type { SuiteView } from "../../src/reporters/entry-details.js";

export const HOSTILE_NAMES = [
  "quote \" apostrophe ' <tag> & ampersand",
  "cdata end ]]> and <![CDATA[ start",
  "emoji 🌩️ agent 🤖 and astral 𝔘",
  "control \u0001\u0007\u001b[31m bell \u000b\u000c end",
  "lone surrogate \ud800 here",
  "tab\tnewline\ncarriage\rreturn",
  "</testcase></testsuite><injected/>",
];

/** A suite view with one entry per given name, cycling through results and reasons. */
export function hostileView(): SuiteView {
  const kinds: Pick<SuiteEntry, "result" | "reason_code" | "exit_code">[] = [
    { result: "RECOVERED", reason_code: "RECOVERY_OBSERVED", exit_code: 0 },
    { result: "FAILED", reason_code: "RECOVERY_NOT_OBSERVED", exit_code: 1 },
    { result: "FAILED", reason_code: "SCENARIO_INVALID", exit_code: 2 },
    { result: "PASSED", reason_code: "BASELINE_SUCCEEDED", exit_code: 0 },
    { result: "FAILED", reason_code: "DEPENDENCY_START_FAILED", exit_code: 3 },
  ];
  const entries: SuiteEntry[] = HOSTILE_NAMES.map((name, index) => {
    const kind = kinds[index % kinds.length] as (typeof kinds)[number];
    return {
      path: `scenarios/${index}-${name.slice(0, 12)}.yaml`,
      name,
      ...kind,
      duration_ms: 1000 + index,
      run_folder: kind.reason_code === "SCENARIO_INVALID" ? null : `run-${index}`,
      ...(kind.reason_code === "SCENARIO_INVALID" ? { problems: [`name: ${name}`] } : {}),
    };
  });
  return {
    document: {
      schema_version: 1,
      suite_id: "20261129T183821Z-abcdef01",
      started_at: "2026-11-29T18:38:21.000Z",
      finished_at: "2026-11-29T18:38:31.500Z",
      interrupted: false,
      shard: { index: 1, total: 2 },
      entries,
    },
    details: entries.map((entry) => ({
      diagnostics: entry.result === "FAILED" ? [`diagnostic for ${entry.name}`, "]]> second line"] : [],
      summary: `\nResult: ${entry.result}\nName: ${entry.name}\n`,
      page: entry.run_folder === null ? null : `${entry.run_folder}/report.html`,
    })),
  };
}

/** A suite with trials: a flaky scenario below the minimum, a stable one, one whose trials all failed to start. */
export function trialsView(): SuiteView {
  const runs = (results: [SuiteEntry["result"], string][], folder: string): TrialRun[] =>
    results.map(([result, reason_code], index) => ({
      trial: index + 1,
      result,
      reason_code,
      duration_ms: 1000,
      run_folder: `${folder}/run-${index + 1}`,
    }));
  const flaky = summarizeTrials(
    runs(
      [
        ["RECOVERED", "RECOVERY_OBSERVED"],
        ["FAILED", "RECOVERY_NOT_OBSERVED"],
        ["RECOVERED", "RECOVERY_OBSERVED"],
        ["FAILED", "RECOVERY_NOT_OBSERVED"],
        ["RECOVERED", "RECOVERY_OBSERVED"],
      ],
      "trials-a",
    ),
  );
  const stable = summarizeTrials(
    runs(
      [
        ["PASSED", "BASELINE_SUCCEEDED"],
        ["PASSED", "BASELINE_SUCCEEDED"],
      ],
      "trials-b",
    ),
  );
  const setup = summarizeTrials(
    runs(
      [
        ["FAILED", "DEPENDENCY_START_FAILED"],
        ["FAILED", "DEPENDENCY_START_FAILED"],
      ],
      "trials-c",
    ),
  );
  const entries: SuiteEntry[] = [
    {
      path: "scenarios/a.yaml",
      name: "flaky one",
      result: "FAILED",
      reason_code: "flaky",
      exit_code: 1,
      duration_ms: 5000,
      run_folder: "trials-a",
      trials: { ...flaky, min_pass_rate: 1 },
    },
    {
      path: "scenarios/b.yaml",
      name: "stable one",
      result: "PASSED",
      reason_code: "stable_pass",
      exit_code: 0,
      duration_ms: 2000,
      run_folder: "trials-b",
      trials: { ...stable, min_pass_rate: 1 },
    },
    {
      path: "scenarios/c.yaml",
      name: "never starts",
      result: "FAILED",
      reason_code: "stable_fail",
      exit_code: 3,
      duration_ms: 2000,
      run_folder: "trials-c",
      trials: { ...setup, min_pass_rate: 1 },
    },
  ];
  return {
    document: {
      schema_version: 2,
      suite_id: "20261129T183821Z-abcdef02",
      started_at: "2026-11-29T18:38:21.000Z",
      finished_at: "2026-11-29T18:38:31.500Z",
      interrupted: false,
      shard: null,
      entries,
    },
    details: entries.map((entry) => ({
      diagnostics: [],
      summary: `trial lines of ${entry.name}\n`,
      page: null,
      trialPages: entry.trials?.runs.map((run) => `${run.run_folder}/report.html`) ?? [],
    })),
  };
}
