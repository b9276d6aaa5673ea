import type { LegacyEvent } from "../events/legacy/types.js";
import type { AgentChaosEvent, AnyAgentChaosEvent } from "../events/types.js";
import type { LogExcerpt } from "../report/failure-excerpts.js";
import { renderSummary } from "../report/summary.js";
import type { Report } from "../report/types.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { CliStream } from "../support/cli-io.js";
import { terminalSafe } from "../support/terminal-text.js";
import { formatHeader, formatLiveLine, liveLines, useColour } from "./terminal.js";

/** Where and how `agentchaos run`'s terminal output goes (docs/cli.md "Terminal output"). */
export interface LiveTerminal {
  readonly stream: CliStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The printing side of one run: header, live operation lines, workload lines, summary. */
export interface LiveOutput {
  header(): void;
  onEvent(event: AnyAgentChaosEvent): void;
  onWorkloadLine(stream: "out" | "err", line: string): void;
  /** `excerpts`: masked lines of the run's logs (shown for a failed schema-2 run). */
  summary(report: Report, reportPath: string, excerpts?: readonly LogExcerpt[]): void;
}

export function liveOutput(scenario: AnyScenario, terminal: LiveTerminal): LiveOutput {
  const colour = useColour(terminal.stream.isTTY, terminal.env);
  const label = terminalSafe(scenario.workload.name ?? "workload");
  // The file format decides the live lines (a schema-1 file keeps its own, docs/cli.md), as it
  // decides the events the recorder writes.
  const lines = liveLines(colour);
  const lineOf: (event: AnyAgentChaosEvent) => string | null =
    scenario.legacy === undefined
      ? (event) => lines(event as AgentChaosEvent)
      : (event) => formatLiveLine(event as LegacyEvent, colour);
  return {
    header: () => {
      terminal.stream.write(
        formatHeader(scenario.name, scenario.workload.name ?? scenario.workload.command[0]),
      );
    },
    onEvent: (event) => {
      const line = lineOf(event);
      if (line !== null) terminal.stream.write(line);
    },
    onWorkloadLine: (stream, line) => {
      terminal.stream.write(`[${label} ${stream === "out" ? "OUT" : "ERR"}] ${terminalSafe(line)}\n`);
    },
    summary: (report, reportPath, excerpts) => {
      terminal.stream.write(renderSummary(report, reportPath, excerpts));
    },
  };
}
