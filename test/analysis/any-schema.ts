/** The one analysis and its report for a run of either schema, as the CLI builds them. */
import { AnalysisStream } from "../../src/analysis/analysis-stream.js";
import { evidenceOf } from "../../src/analysis/evidence.js";
import { analyzeRun, runAnalysisOf } from "../../src/analysis/run-analysis.js";
import { analyzeSchema1, schema1AnalysisOf, schema1Plan } from "../../src/analysis/schema-1.js";
import type { RunAnalysis, Schema1Analysis } from "../../src/analysis/types.js";
import type { LegacyEvent } from "../../src/events/legacy/types.js";
import { liftSchema1Event } from "../../src/events/lift-schema-1.js";
import type { AgentChaosEvent } from "../../src/events/types.js";
import { buildReport } from "../../src/report/build.js";
import { buildReportV4 } from "../../src/report/v4/build.js";
import { serializeReport } from "../../src/report/writer.js";
import type { LegacyScenario } from "../../src/scenario/legacy/types.js";
import type { RunScenario } from "../../src/scenario/legacy/upgrade.js";
import type { Scenario } from "../../src/scenario/types.js";

export type AnyEvent = LegacyEvent | AgentChaosEvent;
export type AnyAnalysis = Schema1Analysis | RunAnalysis;

/** An analysis as text, the trigger's bigint seed written `<digits>n`. */
export function analysisText(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? `${item}n` : item));
}

/** A scenario as its file says it: a loaded schema-1 file's own scenario, else the scenario. */
function asWritten(given: LegacyScenario | RunScenario): LegacyScenario | Scenario {
  return given.schemaVersion === 2 && given.legacy !== undefined ? given.legacy.source : given;
}

/** The batch analysis of a whole log. */
export function analyzeAny(given: LegacyScenario | RunScenario, events: readonly AnyEvent[]): AnyAnalysis {
  const scenario = asWritten(given);
  return scenario.schemaVersion === 1
    ? analyzeSchema1(scenario, events as LegacyEvent[])
    : analyzeRun(scenario, events as AgentChaosEvent[]);
}

/**
 * A bounded analysis stream for a run of either schema: `push` takes the events as recorded,
 * `result` concludes with the schema's verdict.
 */
export function streamAny(given: LegacyScenario | RunScenario) {
  const scenario = asWritten(given);
  const v1 = scenario.schemaVersion === 1;
  const stream = new AnalysisStream(v1 ? schema1Plan(scenario) : scenario, { whole: false });
  return {
    stream,
    push: (event: AnyEvent) =>
      stream.push(v1 ? liftSchema1Event(event as LegacyEvent) : (event as AgentChaosEvent)),
    result: (): AnyAnalysis =>
      v1 ? schema1AnalysisOf(evidenceOf(stream)) : runAnalysisOf(evidenceOf(stream)),
  };
}

/** The report's bytes, or the error code of a report the evidence cannot make. */
export function reportText(given: LegacyScenario | RunScenario, analysis: AnyAnalysis): string {
  const scenario = asWritten(given);
  try {
    if (scenario.schemaVersion === 1) {
      const managedDependency = scenario.dependency.start !== null;
      return serializeReport(
        buildReport({ scenario, analysis: analysis as Schema1Analysis, runId: "run", managedDependency }),
      );
    }
    const managedDependencies = scenario.dependencies.flatMap((dependency) =>
      dependency.type === "http" && dependency.start !== null ? [dependency.name] : [],
    );
    return serializeReport(
      buildReportV4({ scenario, analysis: analysis as RunAnalysis, runId: "run", managedDependencies }),
    );
  } catch (error) {
    return `error ${(error as { code?: string }).code}`;
  }
}
