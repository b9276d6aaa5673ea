/**
 * The post-run judgement of `agentchaos run` (run.md): read the recorded events.jsonl back,
 * analyse it, record RUN_COMPLETED with that first verdict, and analyse again with it. The
 * analysis streams: events are analysed as they are read, in memory bounded by the open
 * operations and the unresolved evidence, not by the length of the run. A log the stream cannot
 * judge alone (never one the recorder writes) is read whole and judged by the batch analyzer;
 * the result is the same either way, byte for byte.
 */
import { analyze } from "../analysis/analyze.js";
import { AnalysisStream } from "../analysis/stream/analysis-stream.js";
import { AnalysisStreamV2 } from "../analysis/stream/analysis-stream-v2.js";
import type { Analysis } from "../analysis/types.js";
import { analyzeV2 } from "../analysis/v2/analyze.js";
import type { AnalysisV2 } from "../analysis/v2/types.js";
import { streamEventLines } from "../events/line-stream.js";
import { parseEventLine, parseEventLineV2, readEvents, readEventsV2 } from "../events/reader.js";
import type { AgentChaosEvent, RunResult } from "../events/types.js";
import type { AgentChaosEventV2 } from "../events/types-v2.js";
import type { Scenario } from "../scenario/types.js";
import type { ScenarioV2 } from "../scenario/types-v2.js";

/** How the judgement records its two events (the run's recorder; a bench builds them by hand). */
export interface JudgeHooks<E> {
  /** Records RUN_COMPLETED with the first verdict and returns the event as recorded. */
  complete(first: { readonly result: RunResult; readonly reasonCode: string }): E;
  /** Records the RUN_ERROR of an events file that cannot be read back (its error code) and returns it. */
  unreadable(code: string): E;
}

interface Analyzer<S, E, A> {
  readonly stream: (scenario: S) => { push(event: E): boolean; result(): A };
  readonly parseLine: (line: string, lineNumber: number) => E;
  readonly readAll: (path: string) => Promise<E[]>;
  readonly batch: (scenario: S, events: readonly E[]) => A;
}

const V1: Analyzer<Scenario, AgentChaosEvent, Analysis> = {
  stream: (scenario) => new AnalysisStream(scenario),
  parseLine: parseEventLine,
  readAll: (path) => readEvents(path),
  batch: analyze,
};

const V2: Analyzer<ScenarioV2, AgentChaosEventV2, AnalysisV2> = {
  stream: (scenario) => new AnalysisStreamV2(scenario),
  parseLine: parseEventLineV2,
  readAll: (path) => readEventsV2(path),
  batch: analyzeV2,
};

export function judgeRun(
  scenario: Scenario,
  eventsPath: string,
  hooks: JudgeHooks<AgentChaosEvent>,
): Promise<Analysis>;
export function judgeRun(
  scenario: ScenarioV2,
  eventsPath: string,
  hooks: JudgeHooks<AgentChaosEventV2>,
): Promise<AnalysisV2>;
export function judgeRun(
  scenario: Scenario | ScenarioV2,
  eventsPath: string,
  hooks: JudgeHooks<AgentChaosEvent> | JudgeHooks<AgentChaosEventV2>,
): Promise<Analysis | AnalysisV2> {
  return scenario.schemaVersion === 1
    ? judgeWith(V1, scenario, eventsPath, hooks as JudgeHooks<AgentChaosEvent>)
    : judgeWith(V2, scenario, eventsPath, hooks as JudgeHooks<AgentChaosEventV2>);
}

async function judgeWith<S, E, A extends { result: RunResult; reasonCode: string }>(
  analyzer: Analyzer<S, E, A>,
  scenario: S,
  eventsPath: string,
  hooks: JudgeHooks<E>,
): Promise<A> {
  const stream = analyzer.stream(scenario);
  let count = 0;
  let read: "read" | "stopped";
  let events: E[] = [];
  try {
    read = await streamEventLines(eventsPath, analyzer.parseLine, (event) => {
      count += 1;
      return stream.push(event);
    });
    if (read === "stopped") events = await analyzer.readAll(eventsPath);
  } catch (error) {
    // Should the recorded stream ever be unreadable, the run is judged on that alone.
    const code = (error as { code?: unknown }).code;
    events = [hooks.unreadable(typeof code === "string" ? code : "error")];
    read = "stopped";
  }
  if (read === "read") {
    const completed = hooks.complete(stream.result());
    if (stream.push(completed)) return stream.result();
    // The file now ends with RUN_COMPLETED too: the judgement takes the lines read before it.
    return analyzer.batch(scenario, [...(await analyzer.readAll(eventsPath)).slice(0, count), completed]);
  }
  const first = analyzer.batch(scenario, events);
  return analyzer.batch(scenario, [...events, hooks.complete(first)]);
}
