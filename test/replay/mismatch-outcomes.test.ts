import { describe, expect, it } from "vitest";
import { exitCodeFor, isReplayMismatch } from "../../src/report/exit-code.js";
import type { ExperimentRecord } from "../../src/report/explore-document.js";
import { summarize } from "../../src/report/explore-document.js";
import { isSetupError } from "../../src/report/trials.js";
import { cellText } from "../../src/reporters/explore-matrix.js";

function experiment(result: "PASSED" | "FAILED", reason: string): ExperimentRecord {
  return {
    result,
    reason_code: reason,
    exit_code: exitCodeFor(result, reason, false),
    duration_ms: 1,
    run_folder: "runs/x",
    id: "E1",
    depth: 1,
    label: "llm POST /v1/chat #1 | http_error 503",
    faults: [],
    flaky: false,
    confirmation: null,
    replay: null,
  };
}

describe("a replay mismatch is a run error, not a failure of the agent", () => {
  it("exits 3 and counts as a setup error for trials", () => {
    expect(exitCodeFor("FAILED", "REPLAY_MISMATCH", false)).toBe(3);
    expect(isSetupError({ result: "FAILED", reason_code: "REPLAY_MISMATCH" })).toBe(true);
    expect(isReplayMismatch({ result: "FAILED", reason_code: "REPLAY_MISMATCH" })).toBe(true);
    expect(isReplayMismatch({ result: "FAILED", reason_code: "RECOVERY_NOT_OBSERVED" })).toBe(false);
  });

  it("shows an explore cell as not recorded and leaves it out of the failures", () => {
    const mismatch = experiment("FAILED", "REPLAY_MISMATCH");
    expect(cellText({ kind: "experiment", experiment: mismatch })).toBe("not recorded");
    expect(cellText({ kind: "experiment", experiment: experiment("FAILED", "RECOVERY_NOT_OBSERVED") })).toBe(
      "FAILED RECOVERY_NOT_OBSERVED",
    );
    expect(summarize([mismatch, experiment("PASSED", "BASELINE_SUCCEEDED")])).toMatchObject({
      failed: 0,
      passed: 1,
    });
  });
});
