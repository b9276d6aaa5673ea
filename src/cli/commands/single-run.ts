import { resolve } from "node:path";
import type { ReporterName } from "../../reporters/names.js";
import { DEFAULT_RUNS_DIR, type ExperimentDone, experiment } from "../../runtime/experiment.js";
import type { RecordRequest } from "../../runtime/replay-steps.js";
import type { AnyScenario } from "../../scenario/parse.js";
import type { CliIo } from "../../support/cli-io.js";
import { liveOutput } from "../../terminal/live-output.js";

/**
 * One run of `run` or `record`: the experiment with the live terminal output, into `--output-dir`
 * (default `.agentchaos/runs`), then the reporter files written, if any.
 */
export async function singleRun(
  scenario: AnyScenario,
  io: CliIo,
  options: {
    readonly outputDir: unknown;
    readonly reporters: readonly ReporterName[];
    readonly record?: RecordRequest;
  },
): Promise<ExperimentDone> {
  const { outputDir } = options;
  const done = await experiment(scenario, {
    outputDir: resolve(io.cwd, typeof outputDir === "string" ? outputDir : DEFAULT_RUNS_DIR),
    ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt }),
    ...(io.forceStop === undefined ? {} : { forceStop: io.forceStop }),
    output: liveOutput(scenario, { stream: io.stdout, env: io.env }),
    reporters: options.reporters,
    ...(options.record === undefined ? {} : { record: options.record }),
  });
  if (done.written.length > 0) io.stdout.write(`\nAlso written:\n${done.written.join("\n")}\n`);
  return done;
}
