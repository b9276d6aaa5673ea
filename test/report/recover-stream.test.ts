import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { longRunScenario as longRunFile, writeLongLog } from "../../bench/lib/long-log.mjs";
import { AnalysisStream } from "../../src/analysis/analysis-stream.js";
import { analyzeRun } from "../../src/analysis/run-analysis.js";
import { analyzeSchema1, schema1Plan } from "../../src/analysis/schema-1.js";
import { liftSchema1Event } from "../../src/events/lift-schema-1.js";
import { EVENT_LINE_MAX_BYTES } from "../../src/events/line-stream.js";
import { readEvents, readLegacyEvents } from "../../src/events/reader.js";
import { buildReport } from "../../src/report/build.js";
import { recoverRun } from "../../src/report/recover.js";
import { buildReportV4 } from "../../src/report/v4/build.js";
import { serializeReport } from "../../src/report/writer.js";
import { runEventsOf } from "../../src/reporters/html/run-events.js";
import { readRunEvents, renderRunFolder } from "../../src/reporters/html/run-page.js";
import { readSavedEvents } from "../../src/reporters/saved-run.js";
import { loadScenario } from "../../src/scenario/load.js";
import { testFolder } from "../helpers/cli.js";
import { legacyRunBuilder } from "../helpers/legacy-events.js";
import { longRunScenario } from "../helpers/long-run.js";
import { schema1Source } from "../helpers/schema-1-source.js";
import { streamTakesAll, wholeLogPage } from "../reporters/whole-log-reading.js";

const dir = testFolder("each");
/**
 * A long run: thousands of operations, a few open at once, every one of the 60 scheduled faults
 * reached (one every FAULT_SPACING matching calls), far more operations than the run page draws
 * one by one, and a log of megabytes that is read in many chunks.
 */
const EVENTS = 10_000;
const FAULT_SPACING = 10;

async function writeLongRun(schema: 1 | 2): Promise<void> {
  await writeFile(join(dir.path, "scenario.yaml"), longRunFile(schema, { faultSpacing: FAULT_SPACING }));
  writeLongLog(join(dir.path, "events.jsonl"), { schema, target: EVENTS, faultSpacing: FAULT_SPACING });
}

/**
 * The run page of the recovered run, drawn from events.jsonl as a stream: byte for byte the page
 * the whole-log reading draws, the operations drawn as time buckets.
 */
async function expectStreamedPage(report: Parameters<typeof serializeReport>[0]): Promise<void> {
  await writeFile(join(dir.path, "report.json"), serializeReport(report));
  const events = await readSavedEvents(dir.path);
  expect(streamTakesAll(events)).toBe(true);
  expect(await readRunEvents(dir.path)).toEqual(runEventsOf(events));
  const page = await renderRunFolder(dir.path);
  expect(page).toBe(await wholeLogPage(dir.path, events));
  expect(page).toContain("operations: drawn as 160 time buckets per lane");
}

describe("recovering a long run streams its events", () => {
  // CPU-bound: with other test files sharing the cores, a case may take longer than the default limit.
  it("gives a schema-1 run of 10,000 events the report the whole-log analysis gives, and the page the whole-log reading draws", {
    timeout: 120_000,
  }, async () => {
    await writeLongRun(1);
    const scenario = schema1Source(await loadScenario(join(dir.path, "scenario.yaml")));
    const events = await readLegacyEvents(join(dir.path, "events.jsonl"));
    expect(events.length).toBeGreaterThan(EVENTS - 10);
    const stream = new AnalysisStream(schema1Plan(scenario), { whole: false });
    expect(events.every((event) => stream.push(liftSchema1Event(event)))).toBe(true);
    const analysis = analyzeSchema1(scenario, events);
    expect(analysis.result).toBe("RECOVERED");
    const batch = buildReport({
      scenario,
      analysis,
      runId: events[0]?.run_id ?? "",
      managedDependency: false,
    });
    const recovered = await recoverRun(dir.path);
    expect(recovered.eventCount).toBe(events.length);
    expect(recovered.stoppedAtLine).toBeNull();
    expect(recovered.report).toEqual({
      ...batch,
      artifacts: { ...batch.artifacts, report: "report.recovered.json" },
    });
    await expectStreamedPage(recovered.report);
  });

  it("gives a schema-2 run of 10,000 events the report the whole-log analysis gives, and the page the whole-log reading draws", {
    timeout: 120_000,
  }, async () => {
    await writeLongRun(2);
    const scenario = await loadScenario(join(dir.path, "scenario.yaml"));
    if (scenario.schemaVersion !== 2) throw new Error("expected schema 2");
    const events = await readEvents(join(dir.path, "events.jsonl"));
    const stream = new AnalysisStream(scenario, { whole: false });
    expect(events.every((event) => stream.push(event))).toBe(true);
    const analysis = analyzeRun(scenario, events);
    expect(analysis.result).toBe("RECOVERED");
    const runId = events[0]?.run_id ?? "";
    const batch = buildReportV4({ scenario, analysis, runId, managedDependencies: [] });
    const recovered = await recoverRun(dir.path);
    expect(recovered.eventCount).toBe(events.length);
    expect(recovered.report).toEqual({
      ...batch,
      artifacts: { ...batch.artifacts, report: "report.recovered.json" },
    });
    await expectStreamedPage(recovered.report);
  });
});

describe("recovering a log the streaming analysis cannot judge alone", () => {
  it("reads it again whole and gives the whole-log analysis's report", async () => {
    await writeFile(join(dir.path, "scenario.yaml"), longRunScenario(1));
    const run = legacyRunBuilder()
      .setup()
      .observed("op-1", "fp-a", { method: "POST", path: "/v1/chat/completions" });
    // Two events with one sequence number: only the whole-log analysis judges that.
    run
      .succeeded("op-1")
      .emit({ kind: "RUN_ERROR", reason_code: "INTERNAL_ERROR", message: "x" }, { sequence: 2 });
    await writeFile(join(dir.path, "events.jsonl"), run.jsonl());
    const scenario = schema1Source(await loadScenario(join(dir.path, "scenario.yaml")));
    const events = run.events();
    const stream = new AnalysisStream(schema1Plan(scenario), { whole: false });
    expect(events.every((event) => stream.push(liftSchema1Event(event)))).toBe(false);
    const analysis = analyzeSchema1(scenario, events);
    const batch = buildReport({ scenario, analysis, runId: run.runId, managedDependency: false });
    const recovered = await recoverRun(dir.path);
    expect(recovered.eventCount).toBe(events.length);
    expect(recovered.report).toEqual({
      ...batch,
      artifacts: { ...batch.artifacts, report: "report.recovered.json" },
    });
  });

  it("stops at a line over the line limit, as at any line that is not a valid event", async () => {
    await writeFile(join(dir.path, "scenario.yaml"), longRunScenario(1));
    const text = legacyRunBuilder().setup().jsonl();
    await writeFile(
      join(dir.path, "events.jsonl"),
      // The same bytes as the text `${text}${"x".repeat(EVENT_LINE_MAX_BYTES + 1)}\n${text}`, built
      // without a 65 MiB string to encode.
      Buffer.concat([
        Buffer.from(text),
        Buffer.alloc(EVENT_LINE_MAX_BYTES + 1, "x"),
        Buffer.from(`\n${text}`),
      ]),
    );
    const recovered = await recoverRun(dir.path);
    expect({ count: recovered.eventCount, stoppedAt: recovered.stoppedAtLine }).toEqual({
      count: 3,
      stoppedAt: 4,
    });
  });
});
