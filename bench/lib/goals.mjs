// The bench's goals, judged from the results; reported as met / missed, never asserted.

const rpsGoal = (goal, key) => ({
  goal,
  target: ">= 1.20x",
  from: (r) => {
    const ratio = r.passThrough?.[key]?.c64;
    return ratio == null ? undefined : { ratio, tool: r.passThrough.tool };
  },
  met: ({ ratio }) => ratio >= 1.2,
  show: ({ ratio, tool }) => `${ratio.toFixed(2)}x (${tool})`,
});

const p50Goal = (goal, key) => ({
  goal,
  target: "<= 1.00x",
  from: (r) => {
    const added = r.passThrough?.addedP50MsAt1;
    return added?.[key] == null ? undefined : { bare: added.bare, ours: added[key] };
  },
  // Agent Chaos adds no more latency than the bare pipe does.
  met: ({ bare, ours }) => ours <= bare,
  show: ({ bare, ours }) => `${ours.toFixed(3)} ms vs ${bare.toFixed(3)} ms`,
});

const rssGoal = (goal, from, limitMb) => ({
  goal,
  target: `<= ${limitMb} MB`,
  from,
  met: (mb) => mb <= limitMb,
  show: (mb) => `${mb.toFixed(1)} MB`,
});

const longRunGoal = (goal, key) => ({
  goal,
  target: "<= 10 s, <= 200 MB",
  from: (r) => r.longRun?.[key],
  met: ({ seconds, peakRssMb }) => seconds <= 10 && peakRssMb <= 200,
  show: ({ seconds, peakRssMb }) => `${seconds.toFixed(1)} s, ${peakRssMb.toFixed(0)} MB`,
});

const longReportGoal = (goal, key, command) => ({
  goal,
  target: "exit 0, <= 200 MB",
  from: (r) => r.longReport?.[key]?.[command],
  met: ({ code, peakRssMb }) => code === 0 && peakRssMb <= 200,
  show: ({ code, peakRssMb }) => `exit ${code}, ${peakRssMb.toFixed(0)} MB`,
});

const GOALS = [
  rpsGoal("req/s at 64 connections vs bare Node pipe", "rpsRatioVsBare"),
  rpsGoal("  the same, schema 2, two dependencies", "rpsRatioVsBareV2"),
  p50Goal("added p50 at 1 connection vs bare pipe's", "agentchaos"),
  p50Goal("  the same, schema 2, two dependencies", "agentchaosV2"),
  rssGoal("proxy peak RSS at 1,000 keep-alive connections", (r) => r.memory?.agentchaos.peakRssMb, 100),
  rssGoal("  the same, schema 2, two dependencies", (r) => r.memory?.agentchaosV2?.peakRssMb, 100),
  rssGoal("whole `agentchaos run` peak RSS under that load", (r) => r.memory?.cliRun.peakRssMb, 130),
  {
    goal: "events written per second by the recorder alone",
    target: ">= 200,000",
    from: (r) => r.recorder?.eventsPerS,
    met: (rate) => rate >= 200_000,
    show: (rate) => rate.toLocaleString("en-US"),
  },
  longRunGoal("analysis + report of a 2,000,000-event log", "schema1"),
  longRunGoal("  the same, schema 2, two dependencies", "schema2"),
  longReportGoal("`report --format html` of a 2,000,000-event run", "schema1", "report"),
  longReportGoal("  the same, schema 2, two dependencies", "schema2", "report"),
  longReportGoal("`inspect --recover` of a 2,000,000-event run", "schema1", "recover"),
  longReportGoal("  the same, schema 2, two dependencies", "schema2", "recover"),
  {
    goal: "SSE time to first byte",
    target: "<= direct + 2 ms",
    from: (r) => r.streaming?.addedTtfbMs,
    met: (added) => added <= 2,
    show: (added) => `direct ${signed(added)} ms`,
  },
  {
    goal: "SSE time to first byte, armed stream fault",
    target: "<= direct + 2 ms",
    from: (r) => r.streaming?.armedAddedTtfbMs,
    met: (added) => added <= 2,
    show: (added) => `direct ${signed(added)} ms`,
  },
  {
    goal: "SSE total time",
    target: "<= direct + 10 ms",
    from: (r) => r.streaming?.addedTotalMs,
    met: (added) => added <= 10,
    show: (added) => `direct ${signed(added)} ms`,
  },
  {
    goal: "`agentchaos --version` vs `node -e 0`",
    target: "<= 3x",
    from: (r) => r.cliStart?.versionRatioVsNode,
    met: (ratio) => ratio <= 3,
    show: (ratio) => `${ratio.toFixed(2)}x`,
  },
  {
    goal: "`agentchaos fake-llm` start CPU vs `node -e 0`",
    target: "<= 1.25x",
    from: (r) => r.startCpu?.fakeLlmRatioVsNode,
    met: (ratio) => ratio <= 1.25,
    show: (ratio) => `${ratio.toFixed(2)}x`,
  },
  {
    goal: "`run support_baseline.yaml`: CPU of its own process after Node's start",
    target: "<= 150 ms",
    from: (r) => (r.startCpu ? r.startCpu.run.medianCpuMs - r.startCpu.node.medianCpuMs : undefined),
    met: (ms) => ms <= 150,
    show: (ms) => `${ms.toFixed(0)} ms`,
  },
  {
    goal: "run overhead ({port} example, managed dependencies) vs by hand",
    target: "<= 100 ms",
    from: (r) => r.runOverhead?.overheadMs,
    met: (ms) => ms <= 100,
    show: (ms) => `${ms.toFixed(0)} ms`,
  },
  {
    goal: "  the same, no_fault.yaml (schema 1)",
    target: "<= 100 ms",
    from: (r) => r.runOverhead?.noFault?.overheadMs,
    met: (ms) => ms <= 100,
    show: (ms) => `${ms.toFixed(0)} ms`,
  },
  {
    goal: "explore: run overhead per experiment (order_agent.yaml)",
    target: "<= 250 ms",
    from: (r) => r.explore?.overheadMs,
    met: (ms) => ms <= 250,
    show: (ms) => `${ms.toFixed(0)} ms`,
  },
  {
    goal: "10,000-operation report.html load in Chromium",
    target: "<= 2000 ms",
    from: (r) => r.htmlReport?.loadMs,
    met: (ms) => ms <= 2000,
    show: (ms) => `${ms.toFixed(0)} ms`,
  },
  {
    goal: "10 trials with --jobs 2 vs 10 single runs ({port} example)",
    target: "<= 0.50x",
    from: (r) => r.trials?.ratio,
    met: (ratio) => ratio <= 0.5,
    show: (ratio) => `${ratio.toFixed(2)}x`,
  },
  {
    goal: "MCP shim start-up before the server is spawned",
    target: "< 150 ms",
    from: (r) => r.mcpShim?.shimStartUpMs,
    met: (ms) => ms < 150,
    show: (ms) => `${ms.toFixed(1)} ms`,
  },
  ...["c1", "c64"].map((level) => ({
    goal: `replay (timing: immediate) vs live pass-through, req/s at ${level}`,
    target: ">= 0.90x",
    from: (r) => r.replay?.[level]?.rpsRatio,
    met: (ratio) => ratio >= 0.9,
    show: (ratio) => `${ratio.toFixed(2)}x`,
  })),
  {
    goal: "replay (timing: recorded): an event stream's worst gap error (median stream)",
    target: "<= 5 ms",
    from: (r) => r.replay?.gaps?.medianWorstMs,
    met: (ms) => ms <= 5,
    show: (ms) => `${ms.toFixed(2)} ms`,
  },
  ...["agentToServer", "serverToAgent"].map((way) => ({
    goal:
      way === "agentToServer"
        ? "64 MiB stdio line through the shim, agent -> server"
        : "  the same, server -> agent",
    target: "<= 2x direct",
    from: (r) => r.relays?.shim64MibRatio[way],
    met: (ratio) => ratio <= 2,
    show: (ratio) => `${ratio.toFixed(2)}x`,
  })),
  // The goals of "Performance 2" (wire speed against nginx, per-run cost of many short runs).
  {
    goal: "req/s at 64 connections vs nginx (1 worker), full recording",
    target: ">= 0.80x",
    from: (r) => {
      const ratio = r.passThrough?.rpsRatioVsNginx?.c64;
      return ratio == null ? undefined : { ratio, tool: r.passThrough.tool };
    },
    unmeasured: (r) => (r.passThrough && !r.passThrough.rpsRatioVsNginx ? "nginx not installed" : null),
    met: ({ ratio }) => ratio >= 0.8,
    show: ({ ratio, tool }) => `${ratio.toFixed(2)}x (${tool})`,
  },
  {
    goal: "added p50 at 1 connection over the direct upstream",
    target: "<= 0.030 ms",
    from: (r) => r.passThrough?.addedP50MsAt1?.agentchaos,
    met: (ms) => ms <= 0.03,
    show: (ms) => `${ms.toFixed(3)} ms`,
  },
  {
    goal: "MCP stdio shim: added per tool call",
    target: "<= 0.10 ms",
    from: (r) => r.mcpShim?.addedPerCallMs,
    met: (ms) => ms <= 0.1,
    show: (ms) => `${ms.toFixed(3)} ms`,
  },
  {
    goal: "MCP stdio shim: start-up over `node -e 0`",
    target: "<= 10 ms",
    from: (r) => r.mcpShim?.shimStartUpAboveNodeMs,
    met: (ms) => ms <= 10,
    show: (ms) => `${ms.toFixed(1)} ms`,
  },
  {
    goal: "  the same, CPU time (shim and run) added per tool call",
    target: "<= 0.10 ms",
    from: (r) => r.mcpShim?.addedCpuPerCallMs,
    met: (ms) => ms <= 0.1,
    show: (ms) => `${ms.toFixed(3)} ms`,
  },
  {
    goal: "  the same, start-up CPU time over a bare Node.js",
    target: "<= 10 ms",
    from: (r) => r.mcpShim?.shimStartUpCpuAboveNodeMs,
    met: (ms) => ms <= 10,
    show: (ms) => `${ms.toFixed(1)} ms`,
  },
  {
    goal: "explore example, experiments per minute, --jobs 2",
    target: ">= 300",
    from: (r) => r.explore?.jobs2?.experimentsPerMinute,
    met: (rate) => rate >= 300,
    show: (rate) => rate.toFixed(0),
  },
  {
    goal: "masking canaries in a 50 MB log: peak RSS, none left",
    target: "<= 100 MB",
    from: (r) => r.logMasking,
    met: ({ peakRssMb, canaryLeft }) => peakRssMb <= 100 && !canaryLeft,
    show: ({ peakRssMb, canaryLeft }) => `${peakRssMb.toFixed(0)} MB${canaryLeft ? ", canary left" : ""}`,
  },
  {
    goal: "`npm test` on this machine",
    target: "<= 180 s",
    from: (r) => r.npmTest,
    unmeasured: (r) => (r.npmTest ? null : "left out: AGENTCHAOS_BENCH_NPM_TEST=0"),
    met: ({ code, seconds }) => code === 0 && seconds <= 180,
    show: ({ code, seconds }) => `${seconds.toFixed(0)} s${code === 0 ? "" : ` (exit ${code})`}`,
  },
];

function signed(value) {
  return `${value < 0 ? "-" : "+"} ${Math.abs(value).toFixed(2)}`;
}

/**
 * One entry per goal: { goal, target, actual, status } with status `met`, `missed` or
 * `not measured` (with the reason when the measurement gave one: `not measured: <reason>`).
 */
export function judgeGoals(results) {
  return GOALS.map(({ goal, target, from, met, show, unmeasured }) => {
    const value = from(results);
    if (value === undefined || value === null) {
      const reason = unmeasured?.(results) ?? null;
      return {
        goal,
        target,
        actual: null,
        status: reason === null ? "not measured" : `not measured: ${reason}`,
      };
    }
    return { goal, target, actual: show(value), status: met(value) ? "met" : "missed" };
  });
}
