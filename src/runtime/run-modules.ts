/**
 * The modules a run needs only once its dependency is starting: the proxy, the event reader,
 * the analyzer and the report writer. They are imported while the dependency boots (another
 * process, another core), so their load time overlaps with it instead of adding to every run.
 */
export interface RunModules {
  readonly startProxy: typeof import("../proxy/server.js").startProxy;
  readonly readEvents: typeof import("../events/reader.js").readEvents;
  readonly analyze: typeof import("../analysis/analyze.js").analyze;
  readonly buildReport: typeof import("../report/build.js").buildReport;
  readonly writeReport: typeof import("../report/writer.js").writeReport;
}

export function loadRunModules(): Promise<RunModules> {
  return Promise.all([
    import("../proxy/server.js"),
    import("../events/reader.js"),
    import("../analysis/analyze.js"),
    import("../report/build.js"),
    import("../report/writer.js"),
  ]).then(([proxy, reader, analysis, build, writer]) => ({
    startProxy: proxy.startProxy,
    readEvents: reader.readEvents,
    analyze: analysis.analyze,
    buildReport: build.buildReport,
    writeReport: writer.writeReport,
  }));
}
