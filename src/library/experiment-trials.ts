/**
 * `runExperiment` with `trials` above 1: the series `agentchaos run --trials N` runs, through
 * the one trials engine (src/trials/run-trials.ts), judged as a suite judges a scenario with
 * trials (docs/library.md).
 */
import type { RunResult } from "../events/types.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { TrialsDocument } from "../trials/document.js";
import { type RunTrialsOptions, trials } from "../trials/run-trials.js";

/** What `runExperiment` resolves to when it ran a series of trials. */
export interface TrialsExperimentResult {
  /** `PASSED` when the pass rate reaches `minPassRate`, else `FAILED` (as a suite entry). */
  readonly result: Extract<RunResult, "PASSED" | "FAILED">;
  /** The series' class: `stable_pass`, `flaky` or `stable_fail`. */
  readonly reasonCode: TrialsDocument["class"];
  /** What `agentchaos run --trials N` would exit with: 0, 1, 3 or 130. */
  readonly exitCode: number;
  /** A series has no single report: its numbers are in `trials`. */
  readonly report: null;
  /** Absolute path of the trials folder (the trials' run folders and trials.json). */
  readonly runFolder: string;
  /** The trials.json document. */
  readonly trials: TrialsDocument;
}

export async function experimentTrials(
  scenario: AnyScenario,
  options: RunTrialsOptions,
): Promise<TrialsExperimentResult> {
  const done = await trials(scenario, { ...options, cwd: process.cwd() });
  return {
    result: done.document.passes ? "PASSED" : "FAILED",
    reasonCode: done.document.class,
    exitCode: done.exitCode,
    report: null,
    runFolder: done.folder,
    trials: done.document,
  };
}
