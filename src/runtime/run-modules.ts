/**
 * The modules a run needs only once its dependency is starting: the proxy, the event reader,
 * the judgement (which loads the analysis) and the report builders and writer. They are imported while the dependencies
 * boot (other processes, another core), so their load time overlaps with it instead of adding
 * to every run.
 */
export interface RunModules {
  readonly startProxy: typeof import("../proxy/server.js").startProxy;
  readonly readEvents: typeof import("../events/reader.js").readEvents;
  readonly readEventsV2: typeof import("../events/reader.js").readEventsV2;
  readonly buildReport: typeof import("../report/build.js").buildReport;
  readonly buildReportV4: typeof import("../report/v4/build.js").buildReportV4;
  readonly writeReport: typeof import("../report/writer.js").writeReport;
  readonly judgeRun: typeof import("./judge.js").judgeRun;
}

/** `withFaults`: the fault registry is loaded too, for the proxies of a scenario with faults. */
export function loadRunModules(withFaults: boolean): Promise<RunModules> {
  if (withFaults) void import("../faults/registry.js").catch(() => undefined);
  return Promise.all([
    import("../proxy/server.js"),
    import("../events/reader.js"),
    import("../report/build.js"),
    import("../report/v4/build.js"),
    import("../report/writer.js"),
    import("./judge.js"),
  ]).then(([proxy, reader, build, buildV4, writer, judge]) => ({
    startProxy: proxy.startProxy,
    readEvents: reader.readEvents,
    readEventsV2: reader.readEventsV2,
    buildReport: build.buildReport,
    buildReportV4: buildV4.buildReportV4,
    writeReport: writer.writeReport,
    judgeRun: judge.judgeRun,
  }));
}
