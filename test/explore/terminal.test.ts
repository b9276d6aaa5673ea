import { describe, expect, it } from "vitest";
import type { ExploreDone } from "../../src/explore/run-explore.js";
import { exploreTerminal } from "../../src/explore/terminal.js";
import type { ExperimentRecord, RunRecord } from "../../src/report/explore-document.js";

function capture(isTTY: boolean, env: Record<string, string> = {}) {
  let text = "";
  return {
    terminal: { stream: { write: (chunk: string) => (text += chunk), isTTY }, env },
    get text() {
      return text;
    },
  };
}

const RUN: RunRecord = {
  result: "PASSED",
  reason_code: "NO_FAULT_INJECTED",
  exit_code: 0,
  duration_ms: 800,
  run_folder: "b1",
};
const TRIAL = {
  label: "llm POST /v1/chat/completions #1 x http_error 503",
  result: "FLAKY",
  reason_code: "RECOVERY_OBSERVED",
  duration_ms: 1234,
} as unknown as ExperimentRecord;

const START = {
  kind: "start",
  folder: "/out/e",
  exploreId: "e1",
  scenarioName: "agent",
  scenarioPath: "agent.yaml",
  seed: 7,
  jobs: 2,
  depth: 1,
  budget: 50,
  baselineRuns: 1,
  trials: 1,
  minPassRate: 1,
} as const;

describe("the explore's terminal output", () => {
  it("prints the header, the baseline and one line per experiment with a counter and colours on a terminal", () => {
    const out = capture(true);
    const terminal = exploreTerminal(out.terminal, "/out");
    terminal.progress(START);
    terminal.progress({ kind: "baseline", index: 0, run: RUN, done: 1, total: 1 });
    terminal.progress({ kind: "experiment", phase: "depth_1", trial: TRIAL, done: 1, total: 3, etaMs: 4000 });
    terminal.progress({ kind: "phase", phase: "confirm", total: 1 });
    expect(out.text).toBe(
      "Agent Chaos explore\n\nScenario: agent (agent.yaml)\nOutput:   e\nSeed:     7\nDepth: 1   Budget: 50   Jobs: 2\n\nBaseline: 1 run\n" +
        "\u001b[32mPASSED   \u001b[0m  NO_FAULT_INJECTED               0.80s  baseline 1\n" +
        "\u001b[33mFLAKY    \u001b[0m  RECOVERY_OBSERVED               1.23s  [1/3] llm POST /v1/chat/completions #1 x http_error 503  (ETA 4s)\n" +
        "1/3 done, about 4s left\r\u001b[K\nConfirming 1 failure\n",
    );
  });

  it("ends with the counts, the wall time and the paths written, without colour off a terminal", () => {
    const out = capture(false);
    const terminal = exploreTerminal(out.terminal, "/out");
    terminal.progress({ kind: "baseline", index: 0, run: RUN, done: 1, total: 1 });
    const document = {
      message: null,
      points: [],
      menu: [],
      status: "complete",
      experiments: [],
      settings: { depth: 1 },
      candidates: { depth_2: 0 },
      summary: { experiments: 0, passed: 0, recovered: 0, failed: 0, flaky: 0 },
    };
    terminal.finish(
      {
        document,
        folder: "/out/e",
        written: ["/out/e/explore.json", "/elsewhere/x.html"],
      } as unknown as ExploreDone,
      2500,
    );
    expect(out.text).toBe(
      "PASSED     NO_FAULT_INJECTED               0.80s  baseline 1\n" +
        "\nExplore complete. 0 experiments: 0 passed, 0 recovered, 0 failed, 0 flaky\nWall time: 2.50s\n\nWritten:\ne/explore.json\n/elsewhere/x.html\n",
    );
  });
});
