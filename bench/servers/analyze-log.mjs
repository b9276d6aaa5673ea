// The post-run step of `agentchaos run` on a recorded log, alone: read events.jsonl, analyse,
// append RUN_COMPLETED (in memory here, the file is left alone), analyse again, build and
// serialise report.json, as the build under test does it. Prints one JSON line:
// { wallMs, cpuMs, maxRssKb, result, reasonCode, reportBytes }.
// Usage: node analyze-log.mjs --events events.jsonl --scenario scenario.yaml --report report.json
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { flags } from "../lib/child-lifecycle.mjs";
import { DIST, fromDist } from "../lib/paths.mjs";
import { peakRssKb } from "../lib/peak-rss.mjs";

const options = flags();
const { loadScenario } = await fromDist("scenario/load.js");
const { serializeReport } = await fromDist("report/writer.js");
const scenario = await loadScenario(options.scenario);
const runId = "20261201T010000Z-1a2b3c4d";
// The report-4 builder's module (report/v2/ in builds before it was named by report version).
const reportV4Module = existsSync(resolve(DIST, "report", "v4", "build.js"))
  ? "report/v4/build.js"
  : "report/v2/build.js";

/** RUN_COMPLETED right after the last event, as the recorder would write it. */
function completion(last, first) {
  const elapsed = last.elapsed_ms + 1;
  return {
    // A schema-1 file loads as the internal model with its file format in `legacy` (newer builds).
    schema_version: scenario.legacy === undefined ? scenario.schemaVersion : 1,
    event_id: randomUUID(),
    run_id: runId,
    sequence: last.sequence + 1,
    timestamp: new Date(Date.parse(last.timestamp) + 1).toISOString(),
    elapsed_ms: elapsed,
    type: "RUN_COMPLETED",
    component: "orchestrator",
    payload: {
      kind: "RUN_COMPLETED",
      result: first.result,
      reason_code: first.reasonCode,
      duration_ms: elapsed,
    },
  };
}

/** The last line of a file, parsed (read from its end only). */
function lastEvent(path) {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size, 64 * 1024));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const lines = tail.toString("utf8").trimEnd().split("\n");
    return JSON.parse(lines.at(-1));
  } finally {
    closeSync(fd);
  }
}

const started = performance.now();
const cpuBefore = process.cpuUsage();
let report;
if (existsSync(resolve(DIST, "runtime", "judge.js"))) {
  const { judgeRun } = await fromDist("runtime/judge.js");
  let last = null;
  const hooks = {
    complete: (first) => completion(last, first),
    unreadable: (code) => {
      throw new Error(`events unreadable (${code})`);
    },
  };
  // The last event read is needed for RUN_COMPLETED's sequence: read it from the file's end.
  last = lastEvent(options.events);
  const analysis = await judgeRun(scenario, options.events, hooks);
  if (existsSync(resolve(DIST, "report", "run-format.js"))) {
    const { runFormatOf } = await fromDist("report/run-format.js");
    report = runFormatOf(scenario).report(analysis, runId);
  } else if (scenario.schemaVersion === 1) {
    const { buildReport } = await fromDist("report/build.js");
    report = buildReport({ scenario, analysis, runId, managedDependency: false });
  } else {
    const { buildReportV4 } = await fromDist(reportV4Module);
    report = buildReportV4({ scenario, analysis, runId, managedDependencies: [] });
  }
} else if (scenario.schemaVersion === 1) {
  const { readEvents } = await fromDist("events/reader.js");
  const { analyze } = await fromDist("analysis/analyze.js");
  const { buildReport } = await fromDist("report/build.js");
  const events = await readEvents(options.events);
  const first = analyze(scenario, events);
  const analysis = analyze(scenario, [...events, completion(events.at(-1), first)]);
  report = buildReport({ scenario, analysis, runId, managedDependency: false });
} else {
  const { readEvents } = await fromDist("events/reader.js");
  const { analyzeV2 } = await fromDist("analysis/v2/analyze.js");
  const { buildReportV4 } = await fromDist(reportV4Module);
  const events = await readEvents(options.events);
  const first = analyzeV2(scenario, events);
  const analysis = analyzeV2(scenario, [...events, completion(events.at(-1), first)]);
  report = buildReportV4({ scenario, analysis, runId, managedDependencies: [] });
}
const text = serializeReport(report);
writeFileSync(options.report, text);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({ wallMs: Math.round(wallMs), cpuMs: Math.round((cpu.user + cpu.system) / 1000), maxRssKb: peakRssKb(), result: report.result, reasonCode: report.reason_code, reportBytes: text.length })}\n`,
);
