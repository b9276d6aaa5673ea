/**
 * The post-run judgement of `agentchaos run` (docs/cli.md): read the recorded events.jsonl back,
 * analyse it, record RUN_COMPLETED with that first verdict, and analyse again with it. The
 * analysis streams: events are analysed as they are read, in memory bounded by the open
 * operations and the unresolved evidence, not by the length of the run. A log the bounded stream
 * cannot judge alone (never one the recorder writes) is read again into the analysis that keeps
 * every operation (read into memory and sorted first if its events are out of sequence order);
 * the result is the same either way, byte for byte.
 *
 * The run's file format (report/run-format.ts) decides only the edges: how a line is read (a
 * schema-1 event is lifted into the internal model), what the analysis reads of the scenario,
 * and which verdict policy and result shape conclude it.
 */
import { AnalysisStream } from "../analysis/analysis-stream.js";
import { evidenceOf } from "../analysis/evidence.js";
import { analyzeEvents } from "../analysis/run-analysis.js";
import { streamEventLines } from "../events/line-stream.js";
import type { AgentChaosEvent, AnyAgentChaosEvent, RunResult } from "../events/types.js";
import { type FormatAnalysis, type RunFormat, runFormatOf } from "../report/run-format.js";
import type { Scenario } from "../scenario/types.js";

/** How the judgement records its two events (the run's recorder; a bench builds them by hand). */
export interface JudgeHooks {
  /** Records RUN_COMPLETED with the first verdict and returns the event as recorded. */
  complete(first: { readonly result: RunResult; readonly reasonCode: string }): AnyAgentChaosEvent;
  /** Records the RUN_ERROR of an events file that cannot be read back (its error code) and returns it. */
  unreadable(code: string): AnyAgentChaosEvent;
}

/** Judges the run of a loaded scenario recorded at `eventsPath`, in the format of its runs. */
export function judgeRun(scenario: Scenario, eventsPath: string, hooks: JudgeHooks): Promise<FormatAnalysis> {
  return judgeWith(runFormatOf(scenario), eventsPath, hooks);
}

/** Judges with a format chosen already (the run's own, or one a caller builds). */
export async function judgeWith(
  format: RunFormat,
  eventsPath: string,
  hooks: JudgeHooks,
): Promise<FormatAnalysis> {
  const { plan, conclude } = format;
  let count = 0;
  /** One reading of the file into a stream; null when the stream cannot judge the log. */
  const stream = async (whole: boolean): Promise<AnalysisStream | null> => {
    const analysis = new AnalysisStream(plan, { whole });
    count = 0;
    const read = await streamEventLines(eventsPath, format.parseLine, (event) => {
      count += 1;
      return analysis.push(event);
    });
    return read === "read" ? analysis : null;
  };
  let analysis: AnalysisStream | null = null;
  let events: AgentChaosEvent[] = [];
  try {
    // Bounded first; a log it cannot judge is read again into the whole-log form, and read into
    // memory and sorted only when its events are out of sequence order.
    analysis = (await stream(false)) ?? (await stream(true));
    if (analysis === null) events = await format.readAll(eventsPath);
  } catch (error) {
    // Should the recorded stream ever be unreadable, the run is judged on that alone.
    const code = (error as { code?: unknown }).code;
    events = [format.lift(hooks.unreadable(typeof code === "string" ? code : "error"))];
    analysis = null;
  }
  if (analysis !== null) {
    const completed = format.lift(hooks.complete(conclude(evidenceOf(analysis))));
    if (analysis.push(completed)) return conclude(evidenceOf(analysis));
    // The file now ends with RUN_COMPLETED too: the judgement takes the lines read before it.
    const before = (await format.readAll(eventsPath)).slice(0, count);
    return conclude(analyzeEvents(plan, [...before, completed]));
  }
  const first = conclude(analyzeEvents(plan, events));
  return conclude(analyzeEvents(plan, [...events, format.lift(hooks.complete(first))]));
}
