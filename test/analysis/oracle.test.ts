import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AnalysisStream } from "../../src/analysis/analysis-stream.js";
import { analyze } from "../../src/analysis/analyze.js";
import { evidenceOf } from "../../src/analysis/evidence.js";
import { analyzeRun, runAnalysisOf } from "../../src/analysis/run-analysis.js";
import { analyzeSchema1, schema1AnalysisOf, schema1Plan } from "../../src/analysis/schema-1.js";
import type { Analysis } from "../../src/analysis/types.js";
import { analyzeV2 } from "../../src/analysis/v2/analyze.js";
import type { AnalysisV2 } from "../../src/analysis/v2/types.js";
import { liftSchema1Event } from "../../src/events/lift-schema-1.js";
import type { AgentChaosEvent } from "../../src/events/types.js";
import type { AgentChaosEventV2 } from "../../src/events/types-v2.js";
import { buildReport } from "../../src/report/build.js";
import { buildReportV4 } from "../../src/report/v2/build.js";
import { serializeReport } from "../../src/report/writer.js";
import { loadScenario } from "../../src/scenario/load.js";
import type { Scenario } from "../../src/scenario/types.js";
import type { ScenarioV2 } from "../../src/scenario/types-v2.js";
import { ROOT } from "../helpers/cli.js";
import { randomRun } from "./random-logs.js";

type AnyEvent = AgentChaosEvent | AgentChaosEventV2;
const text = (value: unknown) =>
  JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? `${item}n` : item));

function oldAnalysis(scenario: Scenario | ScenarioV2, events: readonly AnyEvent[]) {
  return scenario.schemaVersion === 1
    ? analyze(scenario, events as AgentChaosEvent[])
    : analyzeV2(scenario, events as AgentChaosEventV2[]);
}

function newAnalysis(scenario: Scenario | ScenarioV2, events: readonly AnyEvent[]) {
  return scenario.schemaVersion === 1
    ? analyzeSchema1(scenario, events as AgentChaosEvent[])
    : analyzeRun(scenario, events as AgentChaosEventV2[]);
}

/** The bounded stream over the events in file order; null when it hands the log over. */
function streamed(scenario: Scenario | ScenarioV2, events: readonly AnyEvent[], every = 0) {
  const v1 = scenario.schemaVersion === 1;
  const stream = new AnalysisStream(v1 ? schema1Plan(scenario) : scenario, { whole: false });
  const conclude = () => (v1 ? schema1AnalysisOf(evidenceOf(stream)) : runAnalysisOf(evidenceOf(stream)));
  const prefixes: string[] = [];
  for (const [i, event] of events.entries()) {
    if (every > 0 && i % every === 0) prefixes.push(text(conclude()));
    if (!stream.push(v1 ? liftSchema1Event(event as AgentChaosEvent) : (event as AgentChaosEventV2)))
      return null;
  }
  return { analysis: conclude(), prefixes };
}

function reportText(scenario: Scenario | ScenarioV2, analysis: Analysis | AnalysisV2): string {
  try {
    const report =
      scenario.schemaVersion === 1
        ? buildReport({ scenario, analysis: analysis as Analysis, runId: "run", managedDependency: false })
        : buildReportV4({
            scenario,
            analysis: analysis as AnalysisV2,
            runId: "run",
            managedDependencies: [],
          });
    return serializeReport(report);
  } catch (error) {
    return `error ${(error as { code?: string }).code}`;
  }
}

function expectSame(scenario: Scenario | ScenarioV2, events: readonly AnyEvent[], label: string) {
  const expected = oldAnalysis(scenario, events);
  const actual = newAnalysis(scenario, events);
  expect(text(actual), label).toBe(text(expected));
  expect(reportText(scenario, actual), label).toBe(reportText(scenario, expected));
  return expected;
}

describe.each([1, 2] as const)("the one analysis against the old analyzers, schema %i", (schema) => {
  it("equals them on 600 random runs, streamed and batch, with the same report bytes", () => {
    const verdicts = new Set<string>();
    for (let seed = 1; seed <= 600; seed++) {
      const { scenario, events } = randomRun(seed * 31 + schema, schema, false);
      const expected = expectSame(scenario, events, `seed ${seed}`);
      const stream = streamed(scenario, events);
      expect(stream, `seed ${seed}`).not.toBeNull();
      expect(text(stream?.analysis), `seed ${seed}`).toBe(text(expected));
      verdicts.add(`${expected.result} ${expected.reasonCode}`);
    }
    expect(verdicts.size).toBeGreaterThan(schema === 1 ? 6 : 9);
  });

  it("equals them on 600 damaged runs, streamed when the bounded stream takes the log", () => {
    let taken = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const { scenario, events } = randomRun(seed * 13 + schema, schema, true);
      const expected = expectSame(scenario, events, `seed ${seed}`);
      const stream = streamed(scenario, events);
      if (stream === null) continue;
      taken += 1;
      expect(text(stream.analysis), `seed ${seed}`).toBe(text(expected));
    }
    expect(taken).toBeGreaterThan(50);
    expect(taken).toBeLessThan(550);
  });

  it("equals them on every prefix of a run, the stream judged between events", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { scenario, events } = randomRun(seed * 17 + schema, schema, false);
      const stream = streamed(scenario, events, 3);
      stream?.prefixes.forEach((prefix, i) => {
        expect(prefix, `seed ${seed} end ${i * 3}`).toBe(text(oldAnalysis(scenario, events.slice(0, i * 3))));
      });
    }
  });
});

describe("the one analysis against the old analyzer on the golden schema-1 runs", () => {
  it("gives the same analysis and report bytes for every golden events file", async () => {
    const golden = join(ROOT, "test", "fixtures", "golden");
    const names = readdirSync(golden)
      .filter((file) => file.endsWith(".events.jsonl"))
      .map((file) => file.replace(".events.jsonl", ""));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const scenario = (await loadScenario(join(ROOT, "examples", "scenarios", `${name}.yaml`))) as Scenario;
      const lines = (await readFile(join(golden, `${name}.events.jsonl`), "utf8")).trimEnd().split("\n");
      const events = lines.map((line) => JSON.parse(line) as AgentChaosEvent);
      expectSame(scenario, events, name);
      expect(text(streamed(scenario, events)?.analysis), name).toBe(text(analyze(scenario, events)));
    }
  });
});
