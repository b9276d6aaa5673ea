// Turns the results object into the terminal report (the same figures as latest.json).
import { formatTable } from "./table.mjs";

const NAMES = {
  direct: "direct",
  bare: "bare Node pipe",
  nginx: "nginx (1 worker)",
  agentchaos: "Agent Chaos",
  agentchaosV2: "Agent Chaos, schema 2, 2 deps",
  armed: "Agent Chaos, armed stream fault",
  baseline: "baseline build (Agent Chaos)",
};

const SECTIONS = {
  passThrough: (r) => [
    `1. Pass-through, load by ${r.tool} (small JSON upstream; ${r.warmupS} s warm-up, then ${r.rounds} interleaved rounds of ${r.roundS} s)`,
    formatTable(
      ["target", "conns", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "errors", "non-2xx"],
      ["c1", "c64"].flatMap((level) =>
        Object.entries(r.byTarget).map(([name, runs]) => {
          const run = runs[level];
          return [
            NAMES[name],
            run.connections,
            run.rps,
            run.p50Ms,
            run.p99Ms,
            run.cpuUsPerRequest ?? "-",
            run.errors,
            run.non2xx,
          ];
        }),
      ),
    ),
    `req/s Agent Chaos / bare: ${r.rpsRatioVsBare.c1}x at 1, ${r.rpsRatioVsBare.c64}x at 64;` +
      ` schema 2 / bare: ${r.rpsRatioVsBareV2.c1}x at 1, ${r.rpsRatioVsBareV2.c64}x at 64;` +
      ` Agent Chaos / direct: ${r.rpsRatioVsDirect.c1}x at 1, ${r.rpsRatioVsDirect.c64}x at 64` +
      (r.rpsRatioVsNginx
        ? `; Agent Chaos / nginx: ${r.rpsRatioVsNginx.c1}x at 1, ${r.rpsRatioVsNginx.c64}x at 64`
        : ""),
    `added p50 at 1 connection: bare ${r.addedP50MsAt1.bare} ms, Agent Chaos ${r.addedP50MsAt1.agentchaos} ms` +
      ` (${r.addedP50RatioAt1 ?? "-"}x), schema 2 ${r.addedP50MsAt1.agentchaosV2} ms (${r.addedP50RatioAt1V2 ?? "-"}x);` +
      ` events recorded ${r.eventsRecorded} for ${r.measuredRequestsThroughAgentChaos} measured requests,` +
      ` schema 2 ${r.eventsRecordedV2} for ${r.measuredRequestsThroughAgentChaosV2} (plus warm-up)`,
    ...(r.rpsRatioBaselineVsBare
      ? [
          `baseline build / bare: ${r.rpsRatioBaselineVsBare.c1}x at 1, ${r.rpsRatioBaselineVsBare.c64}x at 64; added p50 at 1 connection ${r.addedP50MsAt1Baseline} ms`,
        ]
      : []),
  ],
  streaming: (r) => [
    `2. Streaming (SSE, median of ${r.runs} runs)`,
    formatTable(
      ["target", "TTFB ms", "total ms", "events"],
      ["direct", "bare", "agentchaos", "armed"].map((name) => [
        NAMES[name],
        r[name].ttfbMs,
        r[name].totalMs,
        `${r[name].eventsReceived}/${r.expectedEvents}`,
      ]),
    ),
  ],
  cliStart: (r) => [
    `3. CLI start (median of ${r.runs} runs)`,
    formatTable(
      ["command", "wall ms", "vs node -e 0"],
      [
        ["node -e 0", r.node.medianMs, "1x"],
        ["agentchaos --version", r.version.medianMs, `${r.versionRatioVsNode}x`],
        ["agentchaos validate api_503_recovery.yaml", r.validate.medianMs, `${r.validateRatioVsNode}x`],
      ],
    ),
  ],
  startCpu: (r) => [
    `3b. Start-up CPU (user + system, from Node's start to the exit; median of ${r.runs} runs each, interleaved)`,
    formatTable(
      ["command", "CPU ms", "vs node -e 0"],
      [
        ["node -e 0", r.node.medianCpuMs, "1x"],
        [
          "agentchaos fake-llm --port 0, to its first line, SIGTERM",
          r.fakeLlm.medianCpuMs,
          `${r.fakeLlmRatioVsNode}x`,
        ],
        ["agentchaos run support_baseline.yaml (its own process)", r.run.medianCpuMs, `${r.runRatioVsNode}x`],
      ],
    ),
  ],
  runOverhead: (r) => [
    `4. Run overhead: where one \`agentchaos run\` spends its time, against the same processes started by hand (median of ${r.runs} runs each, interleaved; phases from event timestamps, 1 ms resolution${r.retried ? `; ${r.retried} pair(s) taken again after a failed run` : ""})`,
    ...[
      [`${r.example} ({port}, two managed dependencies, schema 2)`, r],
      ["examples/scenarios/no_fault.yaml (fixed port, one managed dependency, schema 1)", r.noFault],
    ].flatMap(([title, x]) => [
      title,
      formatTable(
        ["phase", "ms", "by hand ms", "added ms"],
        [
          ...x.phases.rows.map((row) => [row.phase, row.ms, row.byHandMs || "-", row.addedMs]),
          ["whole run (wall)", x.agentchaosMs, x.baselineMs, x.overheadMs],
        ],
      ),
      `readiness probes per run: ${x.phases.readinessProbes}; supervisor spawned ${x.phases.supervisorSpawnMs} ms after RUN_STARTED; first proxy listen took ${x.phases.firstListenMs} ms`,
      `CPU of the agentchaos process: ${x.phases.cpu.cpuAtStartMs} ms Node start, ${x.phases.cpu.cpuModulesMs} ms CLI and run modules, ${x.phases.cpu.cpuToFirstSpawnMs} ms from the CLI's first line to the first dependency spawn, ${x.phases.cpu.cpuTotalMs} ms in all`,
    ]),
  ],
  memory: (r) => [
    `5. Memory (${r.connections} concurrent keep-alive connections by ${r.tool}, ${r.durationS} s)`,
    formatTable(
      ["proxy", "idle RSS MB", "peak RSS MB", "req/s", "p99 ms", "errors", "non-2xx"],
      ["agentchaos", "agentchaosV2", "bare"].map((name) => {
        const m = r[name];
        return [NAMES[name], m.idleRssMb, m.peakRssMb, m.rps, m.p99Ms, m.errors, m.non2xx];
      }),
    ),
    ...["agentchaos", "agentchaosV2", "bare"].map((name) => {
      const peaks = r[name].memoryPeaksMb;
      return peaks
        ? `${NAMES[name]}: peaks of V8 heap total ${peaks.heapTotal} MB (used ${peaks.heapUsed}), external ${peaks.external} MB (array buffers ${peaks.arrayBuffers})`
        : `${NAMES[name]}: -`;
    }),
    `whole \`agentchaos run\` process under the same load (scenario loader, live output, post-run analysis and report included): peak RSS ${r.cliRun.peakRssMb} MB, ${r.cliRun.rps} req/s, exit ${r.cliRun.exitCode}`,
  ],
  htmlReport: (r) => [
    `6. HTML report (${r.operations} operations, ${r.events} events; median of ${r.loads} loads in Chromium)`,
    formatTable(
      ["step", "value"],
      [
        ["agentchaos report --format html", `${r.renderMs} ms`],
        ["report.html size", `${r.htmlKb} KB`],
        ["load in Chromium (navigation to load end)", `${r.loadMs} ms`],
      ],
    ),
  ],
  mcpShim: (r) => [
    `7. MCP stdio shim (start-up: median of ${r.starts}; tool calls: median of ${r.calls} sequential calls each)`,
    formatTable(
      ["what", "ms"],
      [
        ["node -e 0 (whole run)", r.nodeStartMs],
        ["shim spawned -> server spawned", r.shimStartUpMs],
        ["  of which beyond a bare node start", r.shimStartUpAboveNodeMs],
        ["  slowest of the starts", r.shimStartUpMaxMs],
        ["tool call, SDK client -> server directly", r.directCallMs],
        ["tool call through the shim", r.shimCallMs],
        ["added per tool call", r.addedPerCallMs],
        ["tool call through the shim, targeted by a fault", r.targetedCallMs],
        ["added per targeted tool call", r.addedPerTargetedCallMs],
        ["CPU: bare node start (until its first line runs)", r.nodeStartCpuMs],
        ["CPU: shim spawned -> server spawned", r.shimStartUpCpuMs],
        ["  of which beyond a bare node start", r.shimStartUpCpuAboveNodeMs],
        ["shim through the whole CLI: beyond a bare node start", r.viaCliStartUpAboveNodeMs],
        ["  CPU beyond a bare node start", r.viaCliStartUpCpuAboveNodeMs],
        ["CPU per tool call: the shim", r.shimCpuPerCallMs],
        ["CPU per tool call: the run's side of the channel", r.runCpuPerCallMs],
        ["bare line relay (no work): added per tool call", r.bareRelayAddedPerCallMs],
        ["bare relay + one channel round trip: added per call", r.bareRoundTripAddedPerCallMs],
        ["  its CPU per tool call", r.bareRoundTripCpuPerCallMs],
      ],
    ),
  ],
  explore: (r) => [
    "8. Explore (examples/explore/order_agent.yaml: baseline, experiments and confirmations)",
    formatTable(
      ["jobs", "wall s", "experiments", "runs", "experiments/min", "runs/min", "mean run ms"],
      [1, 2].map((jobs) => {
        const m = r[`jobs${jobs}`];
        return [jobs, m.wallS, m.experiments, m.runs, m.experimentsPerMinute, m.runsPerMinute, m.meanRunMs];
      }),
    ),
    formatTable(
      [`one experiment (median of ${r.runs})`, "wall ms"],
      [
        ["as explore runs it (in-process)", r.exploreRunMs],
        ["same dependencies + agent by hand", r.byHandMs],
        ["overhead", r.overheadMs],
      ],
    ),
    ...(r.phases === undefined
      ? []
      : [
          `where one experiment's time goes (median of ${r.runs}); CPU of the experiment in process: ${r.cpuMs} ms (${r.firstRunCpuMs} ms the first, modules loaded)`,
          formatTable(
            ["phase", "ms", "%"],
            r.phases.map((row) => [row.phase, row.ms, row.share]),
          ),
        ]),
  ],
  recorder: (r) => [
    `9. Recorder alone (${r.events.toLocaleString("en-US")} operation events, ${r.perTurn} per event-loop turn, ${r.megabytes} MB; median of ${r.runs} runs)`,
    `events/s: ${r.eventsPerS.toLocaleString("en-US")} (runs: ${r.runsEventsPerS.map((n) => n.toLocaleString("en-US")).join(", ")}); peak RSS ${r.peakRssMb} MB`,
  ],
  longRun: (r) => [
    "10. Analysis + report of a long run's events.jsonl (the post-run step of `agentchaos run`, own process)",
    formatTable(
      ["log", "events", "operations", "wall s", "CPU s", "peak RSS MB", "verdict"],
      [
        ["schema 1", "schema1"],
        ["schema 2, 2 deps", "schema2"],
      ].map(([name, key]) => {
        const x = r[key];
        return [name, x.events, x.operations, x.seconds, x.cpuSeconds ?? "-", x.peakRssMb, x.verdict];
      }),
    ),
  ],
  longReport: (r) => [
    "11. `report --format html` and `inspect --recover` of a long run folder (own process each)",
    formatTable(
      ["log", "events", "MB", "command", "exit", "wall s", "peak RSS MB", "page KB"],
      [
        ["schema 1", "schema1"],
        ["schema 2, 2 deps", "schema2"],
      ].flatMap(([name, key]) => {
        const x = r[key];
        return [
          [
            name,
            x.events,
            x.eventsMb,
            "report",
            x.report.code,
            x.report.seconds,
            x.report.peakRssMb,
            x.report.htmlKb ?? "-",
          ],
          ["", "", "", "inspect --recover", x.recover.code, x.recover.seconds, x.recover.peakRssMb, "-"],
        ];
      }),
    ),
  ],
  trials: (r) => [
    `12. Trials (examples/trials/steady_agent.yaml, {port}; median of ${r.rounds} interleaved rounds)`,
    formatTable(
      ["how", "wall ms"],
      [
        [`${r.trials} single \`agentchaos run\`s, one after the other`, r.tenSinglesMs],
        [`\`agentchaos run --trials ${r.trials} --jobs ${r.jobs}\``, r.seriesMs],
      ],
    ),
    `trials / single runs: ${r.ratio}x (rounds: ${r.ratios.map((ratio) => `${ratio}x`).join(", ")})`,
  ],
  relays: (r) => [
    `13. Relays: one message of ${r.sizesMib.join(", ")} MiB (median of ${r.runs} runs; ratio = through Agent Chaos / direct)`,
    formatTable(
      ["relay", "MiB", "direct ms", "relay ms", "MB/s", "ratio", "note"],
      r.rows.map((row) => [
        row.relay,
        row.mib,
        row.directMs,
        row.relayMs ?? row.status,
        row.mbPerS,
        row.ratio === null ? "-" : `${row.ratio}x`,
        row.relayMs === null ? "" : (row.status ?? ""),
      ]),
    ),
  ],
  logMasking: (r) => [
    `14. Masking canaries in a ${r.logMb} MB workload.log (${r.canaries.toLocaleString("en-US")} canaries; own process)`,
    `wall ${r.seconds} s, peak RSS ${r.peakRssMb} MB, canary left: ${r.canaryLeft ? "yes" : "no"}`,
  ],
};

/** The whole report as text. */
export function renderReport(results, errors, goals) {
  const blocks = [];
  for (const [name, render] of Object.entries(SECTIONS)) {
    if (results[name]) blocks.push(render(results[name]).join("\n"));
    else if (errors[name]) blocks.push(`${name}: not measured (${errors[name]})`);
  }
  blocks.push(
    [
      "Goals",
      formatTable(
        ["goal", "target", "actual", "status"],
        goals.map((g) => [g.goal, g.target, g.actual, g.status]),
      ),
    ].join("\n"),
  );
  return `${blocks.join("\n\n")}\n`;
}
