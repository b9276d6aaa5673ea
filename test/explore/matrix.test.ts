import { describe, expect, it } from "vitest";
import { seriesRun } from "../../src/explore/records.js";
import { renderMatrix } from "../../src/explore/terminal.js";
import type { ExperimentRecord, ExploreDocument, RunRecord } from "../../src/report/explore-document.js";
import { summarize } from "../../src/report/explore-document.js";
import { summarizeTrials, type TrialRun } from "../../src/report/trials.js";
import { renderExplorePage } from "../../src/reporters/html/explore-page.js";

const RUN: RunRecord = {
  result: "RECOVERED",
  reason_code: "RECOVERY_OBSERVED",
  exit_code: 0,
  duration_ms: 900,
  run_folder: "r1",
};

function experiment(
  id: string,
  point: string,
  menu: string,
  run: Partial<RunRecord>,
  extra: Partial<ExperimentRecord> = {},
): ExperimentRecord {
  return {
    ...RUN,
    ...run,
    run_folder: `run-${id}`,
    id,
    depth: 1,
    label: `${point} | ${menu}`,
    faults: [{ point, menu, fault: { type: "http_error" } }],
    flaky: false,
    confirmation: null,
    replay: null,
    ...extra,
  };
}

function documentWith(experiments: ExperimentRecord[]): ExploreDocument {
  const point = (id: string, label: string, menu: string[]) => ({
    id,
    label,
    dependency: "api",
    protocol: "http" as const,
    method: "GET",
    path: "/x",
    k: 1,
    relayed_events: null,
    menu,
  });
  return {
    schema_version: 1,
    explore_id: "20261201T000000Z-00000000",
    scenario: { path: "agent.yaml", name: "agent", schema_version: 2 },
    started_at: "2026-12-01T00:00:00.000Z",
    finished_at: "2026-12-01T00:00:09.000Z",
    status: "completed",
    message: null,
    settings: { depth: 1, budget: 5, jobs: 2, baseline_runs: 2, seed: 3, menu: "default" },
    baseline: [{ ...RUN, result: "PASSED", reason_code: "BASELINE_SUCCEEDED", run_folder: "b1" }],
    points: [point("P1", "api GET /a #1", ["M1", "M2"]), point("P2", "api POST /b #1", ["M1", "M2", "M3"])],
    skipped_points: [],
    menu: [
      { id: "M1", label: "http_error status_code=503", fault: { type: "http_error", status_code: 503 } },
      { id: "M2", label: "http_disconnect", fault: { type: "http_disconnect" } },
      { id: "M3", label: "http_response_lost", fault: { type: "http_response_lost" } },
    ],
    not_available: [],
    candidates: { depth_1: 5, depth_2: 0 },
    experiments,
    summary: summarize(experiments),
  };
}

const EXPERIMENTS = [
  experiment("E1", "P1", "M1", { result: "PASSED", reason_code: "FAULT_TOLERATED" }),
  experiment(
    "E2",
    "P1",
    "M2",
    { result: "FAILED", reason_code: "RECOVERY_NOT_OBSERVED", exit_code: 1 },
    { replay: "replays/01-x.yaml" },
  ),
  experiment(
    "E3",
    "P2",
    "M1",
    { result: "FAILED", reason_code: "WORKLOAD_EXIT_CODE_MISMATCH", exit_code: 1 },
    {
      flaky: true,
      confirmation: { ...RUN, run_folder: "run-E3-again" },
    },
  ),
  experiment("E4", "P2", "M3", {}),
];

describe("the matrix", () => {
  it("shows passed, recovered, failed with its reason, flaky, not run (left out by the budget) and not applicable", () => {
    const document = documentWith(EXPERIMENTS);
    expect(renderMatrix(document)).toBe(
      [
        "POINT           http_error status_code=503  http_disconnect               http_response_lost",
        "api GET /a #1   passed                      FAILED RECOVERY_NOT_OBSERVED  -",
        "api POST /b #1  flaky                       not run                       recovered",
      ].join("\n"),
    );
    expect(document.summary).toEqual({ experiments: 4, passed: 1, recovered: 1, failed: 1, flaky: 1 });
  });

  it("is a table of the HTML page whose cells link to the runs' pages, a flaky one to its re-run too", () => {
    const pages = new Map([
      ["run-E1", "run-E1/report.html"],
      ["run-E2", "run-E2/report.html"],
      ["run-E3", "run-E3/report.html"],
      ["run-E3-again", "run-E3-again/report.html"],
      ["run-E4", "run-E4/report.json"],
      ["b1", "b1/report.html"],
    ]);
    const html = renderExplorePage(documentWith(EXPERIMENTS), pages);
    expect(html).toContain('id="verdict" class="badge verdict FAILED"');
    expect(html).toContain('data-cell="passed" data-experiment="E1"');
    expect(html).toContain('data-cell="failed" data-experiment="E2"');
    expect(html).toContain('<td class="cell notrun" data-cell="not_run">not run</td>');
    expect(html).toContain('<td class="cell na" data-cell="not_applicable">—</td>');
    expect(html).toMatch(
      /data-cell="flaky" data-experiment="E3"[\s\S]*?href="run-E3\/report\.html"[\s\S]*?href="run-E3-again\/report\.html">re-run</,
    );
    expect(html).toContain('href="run-E4/report.json"');
    expect(html).toContain('<a class="replay" href="replays/01-x.yaml">replays/01-x.yaml</a>');
    expect(html).not.toMatch(/<script/i);
  });

  it("shows the pass rate of experiments run as trials: flaky ones marked, those below the minimum failed with their main reason", () => {
    const series = (id: string, results: TrialRun["result"][], minPassRate: number) => {
      const runs = results.map((result, index) => ({
        trial: index + 1,
        result,
        reason_code: result === "FAILED" ? "RECOVERY_NOT_OBSERVED" : "RECOVERY_OBSERVED",
        duration_ms: 100,
        run_folder: `t-${id}/run-${index + 1}`,
      }));
      const trials = { ...summarizeTrials(runs), min_pass_rate: minPassRate };
      const run = seriesRun(trials, minPassRate, `t-${id}`);
      return { run, trials };
    };
    const passing = series("E1", ["RECOVERED", "RECOVERED", "RECOVERED"], 1);
    const flakyEnough = series("E2", ["RECOVERED", "FAILED", "RECOVERED", "RECOVERED"], 0.7);
    const below = series("E3", ["FAILED", "RECOVERED", "FAILED"], 0.7);
    expect(passing.run).toEqual({
      result: "RECOVERED",
      reason_code: "RECOVERY_OBSERVED",
      exit_code: 0,
      duration_ms: 300,
      run_folder: "t-E1",
    });
    expect(below.run).toMatchObject({ result: "FAILED", reason_code: "RECOVERY_NOT_OBSERVED", exit_code: 1 });
    const document = documentWith([
      experiment("E1", "P1", "M1", passing.run, { trials: passing.trials }),
      experiment("E2", "P1", "M2", flakyEnough.run, { trials: flakyEnough.trials, flaky: true }),
      experiment("E3", "P2", "M1", below.run, { trials: below.trials, replay: "replays/01-x.yaml" }),
    ]);
    expect(renderMatrix(document)).toBe(
      [
        "POINT           http_error status_code=503               http_disconnect  http_response_lost",
        "api GET /a #1   1.00                                     0.75 flaky       -",
        "api POST /b #1  0.33 flaky FAILED RECOVERY_NOT_OBSERVED  not run          not run",
      ].join("\n"),
    );
  });
});
