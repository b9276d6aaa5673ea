/**
 * How a run's file format is read, judged and reported, chosen once from the loaded scenario: the
 * one analysis reads the internal events either way; a scenario upgraded from schema 1 reads its
 * events schema-1 log through the lift, concludes with the schema-1 verdict policy and writes a
 * report 2 or 3, every other scenario reads events schema 2 or 3 and writes a report 4 or 5
 * (docs/evidence.md, docs/reports.md). The runtime and `inspect --recover` call it without
 * knowing which format it is.
 */
import type { RunEvidence } from "../analysis/evidence.js";
import type { AnalysisPlan } from "../analysis/plan.js";
import { runAnalysisOf } from "../analysis/run-analysis.js";
import { schema1AnalysisOf, schema1Plan } from "../analysis/schema-1.js";
import type { RunAnalysis, Schema1Analysis } from "../analysis/types.js";
import type { LegacyEvent } from "../events/legacy/types.js";
import { liftSchema1Event } from "../events/lift-schema-1.js";
import { eventLineParser, parseLegacyEventLine, readEvents, readLegacyEvents } from "../events/reader.js";
import type { AgentChaosEvent, AnyAgentChaosEvent, RunResult } from "../events/types.js";
import { eventsSchemaOf } from "../scenario/additions.js";
import type { LegacyParts, RunScenario } from "../scenario/legacy/upgrade.js";
import type { Scenario } from "../scenario/types.js";
import { buildReport } from "./build.js";
import type { Report } from "./types.js";
import { buildReportV4 } from "./v4/build.js";

/** The analysis of either format: what every caller reads of it. */
export type FormatAnalysis = Schema1Analysis | RunAnalysis;

export interface RunFormat {
  /** What the analysis reads of the scenario. */
  readonly plan: AnalysisPlan;
  /** An event as recorded, in the internal model. */
  readonly lift: (event: AnyAgentChaosEvent) => AgentChaosEvent;
  /** A line of events.jsonl as an event of the internal model (throws on an invalid line). */
  readonly parseLine: (line: string, lineNumber: number) => AgentChaosEvent;
  /** Every event of an events.jsonl, in the internal model, sorted by sequence. */
  readonly readAll: (path: string) => Promise<AgentChaosEvent[]>;
  /** The verdict and the analysis in the format's shape. */
  readonly conclude: (evidence: RunEvidence) => FormatAnalysis & { readonly result: RunResult };
  /** The report of an analysis this format concluded. */
  readonly report: (analysis: FormatAnalysis, runId: string) => Report;
}

function schema1Format({ source }: LegacyParts): RunFormat {
  return {
    plan: schema1Plan(source),
    lift: (event) => liftSchema1Event(event as LegacyEvent),
    parseLine: (line, lineNumber) => liftSchema1Event(parseLegacyEventLine(line, lineNumber)),
    readAll: async (path) => (await readLegacyEvents(path)).map(liftSchema1Event),
    conclude: schema1AnalysisOf,
    report: (analysis, runId) =>
      buildReport({
        scenario: source,
        // Concluded by `schema1AnalysisOf` above.
        analysis: analysis as Schema1Analysis,
        runId,
        managedDependency: source.dependency.start !== null,
      }),
  };
}

function internalFormat(scenario: Scenario): RunFormat {
  const schema = eventsSchemaOf(scenario) === 3 ? 3 : 2;
  const managedDependencies = scenario.dependencies.flatMap((dependency) =>
    dependency.type === "http" && dependency.start !== null ? [dependency.name] : [],
  );
  return {
    plan: scenario,
    lift: (event) => event as AgentChaosEvent,
    parseLine: eventLineParser(schema),
    readAll: (path) => readEvents(path, {}, schema),
    conclude: runAnalysisOf,
    // Concluded by `runAnalysisOf` above.
    report: (analysis, runId) =>
      buildReportV4({ scenario, analysis: analysis as RunAnalysis, runId, managedDependencies }),
  };
}

/** The format of a loaded scenario's runs. */
export function runFormatOf(scenario: RunScenario): RunFormat {
  return scenario.legacy === undefined ? internalFormat(scenario) : schema1Format(scenario.legacy);
}
