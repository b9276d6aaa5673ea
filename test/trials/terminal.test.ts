import { describe, expect, it } from "vitest";
import type { TrialRun } from "../../src/report/trials.js";
import { trialsDocument } from "../../src/trials/document.js";
import { trialsTerminal } from "../../src/trials/terminal.js";

function capture(isTTY: boolean, env: Record<string, string> = {}) {
  let text = "";
  return {
    terminal: { stream: { write: (chunk: string) => (text += chunk), isTTY }, env },
    get text() {
      return text;
    },
  };
}

const RUNS: TrialRun[] = [
  { trial: 2, result: "FAILED", reason_code: "RECOVERY_NOT_OBSERVED", duration_ms: 2000, run_folder: "b" },
  { trial: 1, result: "RECOVERED", reason_code: "RECOVERY_OBSERVED", duration_ms: 1500, run_folder: "a" },
];

function done(interrupted: boolean) {
  const { document, verdict } = trialsDocument({
    scenario: { path: "s.yaml", name: "agent" },
    runs: RUNS,
    requested: 4,
    minPassRate: 0.5,
    interrupted,
    startedAt: "2026-01-01T00:00:00.000Z",
  });
  return { document, folder: "/out/t", written: ["/out/t/trials.json"], exitCode: verdict.exitCode };
}

describe("the terminal output of run --trials", () => {
  it("prints a line per trial as it ends and the summary, without a counter or colour off a terminal", () => {
    const out = capture(false);
    const terminal = trialsTerminal(out.terminal, "agent");
    terminal.start({ folder: "/out/t", trials: 4, jobs: 2 });
    terminal.trial(RUNS[0] as TrialRun, { done: 1, total: 4 });
    terminal.trial(RUNS[1] as TrialRun, { done: 2, total: 4 });
    terminal.finish(done(false), 3500);
    expect(out.text).toBe(
      [
        "Agent Chaos trials\n\nScenario: agent\nTrials: 4\nJobs: 2\nOutput: /out/t\n\n",
        "FAILED     RECOVERY_NOT_OBSERVED           2.00s  trial 2 of 4\n",
        "RECOVERED  RECOVERY_OBSERVED               1.50s  trial 1 of 4\n",
        "\nTrials complete.\n\n",
        "2 trials: 1 passed, 1 failed (RECOVERY_NOT_OBSERVED ×1) — flaky, pass rate 0.50 [0.0945, 0.9055]\n",
        "Minimum pass rate: 0.5 (reached)\n",
        "Wall time: 3.50s\n",
        "\nWritten:\n/out/t/trials.json\n",
      ].join(""),
    );
  });

  it("shows a live counter with the time left on a terminal, estimated from the clock, and colours without NO_COLOR", () => {
    const out = capture(true);
    let now = 10_000;
    const terminal = trialsTerminal(out.terminal, "agent", () => now);
    terminal.start({ folder: "/out/t", trials: 4, jobs: 2 });
    now += 6_000;
    terminal.trial(RUNS[1] as TrialRun, { done: 1, total: 4 });
    now += 2_000;
    terminal.trial(RUNS[0] as TrialRun, { done: 2, total: 4 });
    expect(out.text).toContain("0/4 done");
    expect(out.text).toContain("\r\u001b[K\u001b[36mRECOVERED\u001b[0m  RECOVERY_OBSERVED");
    expect(out.text).toContain("1/4 done, about 18s left");
    expect(out.text).toContain("\r\u001b[K\u001b[31mFAILED   \u001b[0m");
    expect(out.text.endsWith("2/4 done, about 8s left")).toBe(true);
    const plain = capture(true, { NO_COLOR: "1" });
    trialsTerminal(plain.terminal, "agent").trial(RUNS[0] as TrialRun, { done: 1, total: 4 });
    expect(plain.text).not.toContain("\u001b[31m");
  });

  it("says how many trials finished when interrupted", () => {
    const out = capture(false);
    trialsTerminal(out.terminal, "agent").finish(done(true), 100);
    expect(out.text.startsWith("\nTrials interrupted: 2 of 4 finished.\n\n2 trials:")).toBe(true);
  });
});
