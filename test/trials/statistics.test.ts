import { describe, expect, it } from "vitest";
import {
  meetsMinimum,
  passAtK,
  passHatK,
  passRate,
  trialClass,
  wilsonInterval95,
} from "../../src/analysis/pass-rate.js";
import {
  summarizeTrials,
  type TrialRun,
  trialRunLine,
  trialsLine,
  trialsVerdict,
} from "../../src/report/trials.js";

function run(trial: number, result: TrialRun["result"], reason_code: string): TrialRun {
  return { trial, result, reason_code, duration_ms: 1000 + trial, run_folder: `run-${trial}` };
}

describe("the statistics of a series of trials", () => {
  it("gives 3 passed of 5 the 95 % Wilson interval [0.2307, 0.8824]", () => {
    expect(wilsonInterval95(3, 5)).toEqual([0.2307, 0.8824]);
    expect(passRate(3, 5)).toBe(0.6);
  });

  it("keeps the interval within [0, 1] at the edges, with four decimals", () => {
    expect(wilsonInterval95(10, 10)).toEqual([0.7225, 1]);
    expect(wilsonInterval95(0, 10)).toEqual([0, 0.2775]);
    expect(Object.is(wilsonInterval95(0, 10)[0], 0)).toBe(true);
    expect(wilsonInterval95(5, 10)).toEqual([0.2366, 0.7634]);
    expect(wilsonInterval95(1, 100)).toEqual([0.0018, 0.0545]);
    expect(wilsonInterval95(0, 0)).toEqual([0, 1]);
  });

  it("classes a series as stable_pass, flaky or stable_fail", () => {
    expect(trialClass(10, 10)).toBe("stable_pass");
    expect(trialClass(5, 10)).toBe("flaky");
    expect(trialClass(1, 10)).toBe("flaky");
    expect(trialClass(0, 10)).toBe("stable_fail");
    expect(trialClass(0, 0)).toBe("stable_fail");
  });

  it("says pass^k only when every trial passed and pass@k when any did", () => {
    expect([passHatK(5, 5), passHatK(4, 5), passHatK(0, 0)]).toEqual([true, false, false]);
    expect([passAtK(1), passAtK(0)]).toEqual([true, false]);
  });

  it("compares the pass rate with the minimum as written: 3 of 5 reaches 0.6, 5 of 10 reaches 0.5", () => {
    expect(meetsMinimum(3, 5, 0.6)).toBe(true);
    expect(meetsMinimum(5, 10, 0.5)).toBe(true);
    expect(meetsMinimum(7, 10, 0.7)).toBe(true);
    expect(meetsMinimum(2, 3, 0.67)).toBe(false);
    expect(meetsMinimum(9, 10, 1)).toBe(false);
    expect(meetsMinimum(0, 10, 0)).toBe(true);
  });
});

describe("the summary of a series", () => {
  const runs = [
    run(4, "FAILED", "RECOVERY_NOT_OBSERVED"),
    run(1, "RECOVERED", "RECOVERY_OBSERVED"),
    run(2, "FAILED", "RECOVERY_NOT_OBSERVED"),
    run(3, "RECOVERED", "RECOVERY_OBSERVED"),
    run(5, "PASSED", "FAULT_TOLERATED"),
  ];
  const summary = summarizeTrials(runs);

  it("counts passes (PASSED or RECOVERED), orders the runs by trial and the outcomes by count", () => {
    expect(summary).toMatchObject({
      trials: 5,
      passed: 3,
      pass_rate: 0.6,
      pass_hat_k: false,
      pass_at_k: true,
      wilson_95: [0.2307, 0.8824],
      class: "flaky",
    });
    expect(summary.runs.map((entry) => entry.trial)).toEqual([1, 2, 3, 4, 5]);
    expect(summary.outcomes).toEqual([
      { result: "RECOVERED", reason_code: "RECOVERY_OBSERVED", count: 2 },
      { result: "FAILED", reason_code: "RECOVERY_NOT_OBSERVED", count: 2 },
      { result: "PASSED", reason_code: "FAULT_TOLERATED", count: 1 },
    ]);
    expect(Object.keys(summary)).toEqual([
      "trials",
      "passed",
      "pass_rate",
      "pass_hat_k",
      "pass_at_k",
      "wilson_95",
      "class",
      "outcomes",
      "runs",
    ]);
  });

  it("prints the one-line summary with the failing reasons, the class and the interval", () => {
    expect(trialsLine(summary)).toBe(
      "5 trials: 3 passed, 2 failed (RECOVERY_NOT_OBSERVED ×2) — flaky, pass rate 0.60 [0.2307, 0.8824]",
    );
    const stable = summarizeTrials([1, 2].map((trial) => run(trial, "PASSED", "BASELINE_SUCCEEDED")));
    expect(trialsLine(stable)).toBe(
      "2 trials: 2 passed, 0 failed — stable_pass, pass rate 1.00 [0.3424, 1.0000]",
    );
  });

  it("prints one trial as a line in the suite's columns", () => {
    expect(trialRunLine(run(2, "FAILED", "RECOVERY_NOT_OBSERVED"), 5, { folder: true })).toBe(
      "FAILED     RECOVERY_NOT_OBSERVED           1.00s  trial 2 of 5  run-2",
    );
  });

  it("exits 0 at or above the minimum pass rate, 1 below it, 3 when every trial was a setup error, 130 interrupted", () => {
    expect(trialsVerdict(summary, 1, false)).toEqual({ passes: false, exitCode: 1 });
    expect(trialsVerdict(summary, 0.6, false)).toEqual({ passes: true, exitCode: 0 });
    expect(trialsVerdict(summary, 0.6, true)).toEqual({ passes: true, exitCode: 130 });
    const setup = summarizeTrials([
      run(1, "FAILED", "DEPENDENCY_START_FAILED"),
      run(2, "FAILED", "INTERNAL_ERROR"),
    ]);
    expect(trialsVerdict(setup, 0, false)).toEqual({ passes: false, exitCode: 3 });
    const mixed = summarizeTrials([run(1, "FAILED", "DEPENDENCY_START_FAILED"), run(2, "FAILED", "X")]);
    expect(trialsVerdict(mixed, 1, false).exitCode).toBe(1);
  });
});
