import { resolve } from "node:path";
import { renderSummary } from "../../report/summary.js";
import { runExperiment } from "../../runtime/orchestrator.js";
import { RunIoError } from "../../runtime/run-abort.js";
import { RunFolderError } from "../../runtime/run-folder.js";
import { formatHeader, formatLiveLine, useColour } from "../../runtime/terminal.js";
import { formatScenarioError, ScenarioError } from "../../scenario/errors.js";
import { loadScenario } from "../../scenario/load.js";
import type { Scenario } from "../../scenario/types.js";
import { terminalSafe } from "../../terminal-text.js";
import { type CliIo, EXIT } from "../io.js";

/** `agentchaos run <scenario> [--output-dir PATH]`. */
export async function runCommand(path: string, outputDir: string | null, io: CliIo): Promise<number> {
  let scenario: Scenario;
  try {
    scenario = await loadScenario(resolve(io.cwd, path));
  } catch (error) {
    if (error instanceof ScenarioError) {
      io.stderr.write(`Invalid scenario: ${formatScenarioError(error, path)}\n`);
      return EXIT.USAGE;
    }
    throw error;
  }
  // Interrupted while the scenario was read: nothing was started or written.
  if (io.interrupt?.aborted === true) return EXIT.INTERRUPTED;

  const colour = useColour(io.stdout.isTTY, io.env);
  const label = terminalSafe(scenario.workload.name ?? "workload");
  io.stdout.write(formatHeader(scenario.name, scenario.workload.name ?? scenario.workload.command[0]));
  try {
    const outcome = await runExperiment(scenario, {
      outputDir: resolve(io.cwd, outputDir ?? ".agentchaos/runs"),
      ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt }),
      ...(io.forceStop === undefined ? {} : { forceStop: io.forceStop }),
      onEvent: (event) => {
        const line = formatLiveLine(event, colour);
        if (line !== null) io.stdout.write(line);
      },
      onWorkloadLine: (stream, line) => {
        io.stdout.write(`[${label} ${stream === "out" ? "OUT" : "ERR"}] ${terminalSafe(line)}\n`);
      },
    });
    io.stdout.write(renderSummary(outcome.report, outcome.reportPath));
    return outcome.exitCode;
  } catch (error) {
    if (error instanceof RunFolderError) {
      io.stderr.write(`Cannot start experiment: ${error.message}\n`);
      return EXIT.SETUP;
    }
    if (error instanceof RunIoError) {
      const folder = terminalSafe(error.runDir);
      io.stderr.write(
        `Run failed: ${error.message}. Every process was stopped; the events recorded until then are in ${folder}/events.jsonl (read them with: agentchaos inspect --recover ${folder})\n`,
      );
      return EXIT.SETUP;
    }
    throw error;
  }
}
