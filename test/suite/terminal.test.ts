import { describe, expect, it } from "vitest";
import type { SuiteEntry } from "../../src/report/suite-document.js";
import type { SuiteDone } from "../../src/suite/run-suite.js";
import { suiteTerminal } from "../../src/suite/terminal.js";

function capture(isTTY: boolean, env: Record<string, string> = {}) {
  let text = "";
  return {
    terminal: { stream: { write: (chunk: string) => (text += chunk), isTTY }, env },
    get text() {
      return text;
    },
  };
}

const entry = (name: string, result: SuiteEntry["result"], reason: string, ms: number): SuiteEntry =>
  ({ name, result, reason_code: reason, duration_ms: ms }) as unknown as SuiteEntry;

const ENTRIES = [
  entry("steady", "PASSED", "NO_FAULT_INJECTED", 1200),
  entry("retrying", "FAILED", "RECOVERY_NOT_OBSERVED", 3456),
];

function done(interrupted: boolean, notStarted: number): SuiteDone {
  return {
    document: { entries: ENTRIES, interrupted },
    folder: "/out/s",
    written: ["/out/s/suite.json", "/out/s/junit.xml"],
    notStarted,
    exitCode: 1,
  } as unknown as SuiteDone;
}

describe("the suite's terminal output", () => {
  it("prints a line per scenario and the summary table, without a counter or colour off a terminal", () => {
    const out = capture(false);
    const terminal = suiteTerminal(out.terminal, false);
    terminal.start({ total: 2, folder: "/out/s", jobs: 2, skipped: null });
    terminal.entry(ENTRIES[0] as SuiteEntry, { done: 1, total: 2 });
    terminal.entry(ENTRIES[1] as SuiteEntry, { done: 2, total: 2 });
    terminal.finish(done(false, 0), 4700);
    const rows =
      "PASSED     NO_FAULT_INJECTED               1.20s  steady\n" +
      "FAILED     RECOVERY_NOT_OBSERVED           3.46s  retrying\n";
    expect(out.text).toBe(
      [
        "Agent Chaos suite\n\nScenarios: 2\nJobs: 2\nOutput: /out/s\n\n",
        rows,
        "\nSuite complete.\n\n",
        "RESULT     REASON                       DURATION  SCENARIO\n",
        rows,
        "\n2 scenarios: 1 passed, 0 recovered, 1 failed",
        "\nWall time: 4.70s\n",
        "\nWritten:\n/out/s/suite.json\n/out/s/junit.xml\n",
      ].join(""),
    );
  });

  it("shows a live counter and colours on a terminal, cleared before each line", () => {
    const out = capture(true);
    const terminal = suiteTerminal(out.terminal, false);
    terminal.start({ total: 2, folder: "/out/s", jobs: 1, skipped: "1 file left out" });
    terminal.entry(ENTRIES[1] as SuiteEntry, { done: 1, total: 2 });
    expect(out.text).toBe(
      "Agent Chaos suite\n\nScenarios: 2\n1 file left out\nJobs: 1\nOutput: /out/s\n\n0/2 done" +
        "\r\u001b[K\u001b[31mFAILED   \u001b[0m  RECOVERY_NOT_OBSERVED           3.46s  retrying\n1/2 done",
    );
  });

  it("prints only the summary when quiet, and says how many scenarios did not start", () => {
    const out = capture(true, { NO_COLOR: "1" });
    const terminal = suiteTerminal(out.terminal, true);
    terminal.start({ total: 3, folder: "/out/s", jobs: 1, skipped: null });
    terminal.entry(ENTRIES[0] as SuiteEntry, { done: 1, total: 3 });
    terminal.finish(done(true, 1), 10);
    expect(out.text.startsWith("\nSuite interrupted.\n\nRESULT ")).toBe(true);
    expect(out.text).toContain("1 failed (1 not started)\nWall time: 0.01s\n");
    expect(out.text).not.toContain("\u001b[");
  });
});
