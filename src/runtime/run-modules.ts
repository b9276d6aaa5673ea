/**
 * The modules a run needs only once its dependency is starting: the proxy, the run's format (the
 * event reader, the report builders), the judgement (which loads the analysis) and the writer.
 * They are imported while the dependencies boot (other processes, another core), so their load
 * time overlaps with it instead of adding to every run.
 */
export interface RunModules {
  readonly startProxy: typeof import("../proxy/server.js").startProxy;
  readonly runFormatOf: typeof import("../report/run-format.js").runFormatOf;
  readonly writeReport: typeof import("../report/writer.js").writeReport;
  readonly judgeWith: typeof import("./judge.js").judgeWith;
}

/** `withFaults`: the fault registry is loaded too, for the proxies of a scenario with faults. */
export function loadRunModules(withFaults: boolean): Promise<RunModules> {
  if (withFaults) void import("../faults/registry.js").catch(() => undefined);
  return Promise.all([
    import("../proxy/server.js"),
    import("../report/run-format.js"),
    import("../report/writer.js"),
    import("./judge.js"),
  ]).then(([proxy, format, writer, judge]) => ({
    startProxy: proxy.startProxy,
    runFormatOf: format.runFormatOf,
    writeReport: writer.writeReport,
    judgeWith: judge.judgeWith,
  }));
}
