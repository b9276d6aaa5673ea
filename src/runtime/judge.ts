/**
 * The post-run judgement of `agentchaos run` (docs/cli.md): read the recorded events.jsonl back,
 * analyse it, record RUN_COMPLETED with that first verdict, and analyse again with it. The
 * analysis streams: events are analysed as they are read, in memory bounded by the open
 * operations and the unresolved evidence, not by the length of the run. A log the bounded stream
 * cannot judge alone (never one the recorder writes) is read again into the analysis that keeps
 * every operation (read into memory and sorted first if its events are out of sequence order);
 * the result is the same either way, byte for byte.
 *
 * The run's schema decides only the edges: how a line is read (a schema-1 event is lifted into
 * the internal model), what the analysis reads of the scenario, and which verdict policy and
 * result shape conclude it.
 */
import { AnalysisStream } from "../analysis/analysis-stream.js";
import { evidenceOf, type RunEvidence } from "../analysis/evidence.js";
import type { AnalysisPlan } from "../analysis/plan.js";
import { analyzeEvents, runAnalysisOf } from "../analysis/run-analysis.js";
import { schema1AnalysisOf, schema1Plan } from "../analysis/schema-1.js";
import type { RunAnalysis, Schema1Analysis } from "../analysis/types.js";
import { liftSchema1Event } from "../events/lift-schema-1.js";
import { streamEventLines } from "../events/line-stream.js";
import { eventLineParser, parseEventLine, readEvents, readEventsV2 } from "../events/reader.js";
import type { AgentChaosEvent, RunResult } from "../events/types.js";
import type { AgentChaosEventV2 } from "../events/types-v2.js";
import { eventsSchemaOf } from "../scenario/additions.js";
import type { Scenario } from "../scenario/types.js";
import type { ScenarioV2 } from "../scenario/types-v2.js";

/** How the judgement records its two events (the run's recorder; a bench builds them by hand). */
export interface JudgeHooks<E> {
  /** Records RUN_COMPLETED with the first verdict and returns the event as recorded. */
  complete(first: { readonly result: RunResult; readonly reasonCode: string }): E;
  /** Records the RUN_ERROR of an events file that cannot be read back (its error code) and returns it. */
  unreadable(code: string): E;
}

/** A run's format at the edges of the one analysis. */
interface Format<E, A> {
  readonly plan: AnalysisPlan;
  /** An event as recorded, in the internal model. */
  readonly lift: (event: E) => AgentChaosEventV2;
  readonly parseLine: (line: string, lineNumber: number) => AgentChaosEventV2;
  readonly readAll: (path: string) => Promise<AgentChaosEventV2[]>;
  readonly conclude: (evidence: RunEvidence) => A;
}

function schema1Format(scenario: Scenario): Format<AgentChaosEvent, Schema1Analysis> {
  return {
    plan: schema1Plan(scenario),
    lift: liftSchema1Event,
    parseLine: (line, lineNumber) => liftSchema1Event(parseEventLine(line, lineNumber)),
    readAll: async (path) => (await readEvents(path)).map(liftSchema1Event),
    conclude: schema1AnalysisOf,
  };
}

function internalFormat(scenario: ScenarioV2): Format<AgentChaosEventV2, RunAnalysis> {
  const schema = eventsSchemaOf(scenario) === 3 ? 3 : 2;
  return {
    plan: scenario,
    lift: (event) => event,
    parseLine: eventLineParser(schema),
    readAll: (path) => readEventsV2(path, {}, schema),
    conclude: runAnalysisOf,
  };
}

export function judgeRun(
  scenario: Scenario,
  eventsPath: string,
  hooks: JudgeHooks<AgentChaosEvent>,
): Promise<Schema1Analysis>;
export function judgeRun(
  scenario: ScenarioV2,
  eventsPath: string,
  hooks: JudgeHooks<AgentChaosEventV2>,
): Promise<RunAnalysis>;
export function judgeRun(
  scenario: Scenario | ScenarioV2,
  eventsPath: string,
  hooks: JudgeHooks<AgentChaosEvent> | JudgeHooks<AgentChaosEventV2>,
): Promise<Schema1Analysis | RunAnalysis> {
  return scenario.schemaVersion === 1
    ? judgeWith(schema1Format(scenario), eventsPath, hooks as JudgeHooks<AgentChaosEvent>)
    : judgeWith(internalFormat(scenario), eventsPath, hooks as JudgeHooks<AgentChaosEventV2>);
}

async function judgeWith<E, A extends { result: RunResult; reasonCode: string }>(
  format: Format<E, A>,
  eventsPath: string,
  hooks: JudgeHooks<E>,
): Promise<A> {
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
  let events: AgentChaosEventV2[] = [];
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
