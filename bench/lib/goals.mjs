// The bench's goals, judged from the results; reported as met / missed, never asserted.

const GOALS = [
  {
    goal: "req/s at 64 connections vs bare proxy",
    target: ">= 1.00x",
    from: (r) => r.passThrough?.rpsRatioVsBare.c64,
    met: (ratio) => ratio >= 1,
    show: (ratio) => `${ratio.toFixed(2)}x`,
  },
  {
    goal: "added p50 at 1 connection vs bare proxy's",
    target: "<= 1.5x",
    from: (r) => r.passThrough?.addedP50MsAt1,
    met: ({ bare, agentchaos }) => agentchaos <= 1.5 * bare,
    show: ({ bare, agentchaos }) => `${agentchaos.toFixed(3)} ms vs ${bare.toFixed(3)} ms`,
  },
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
    goal: "run overhead (no_fault.yaml)",
    target: "<= 250 ms",
    from: (r) => r.runOverhead?.overheadMs,
    met: (ms) => ms <= 250,
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
    goal: "peak RSS at 1,000 connections",
    target: "<= 120 MB",
    from: (r) => r.memory?.agentchaos.peakRssMb,
    met: (mb) => mb <= 120,
    show: (mb) => `${mb.toFixed(1)} MB`,
  },
  {
    goal: "10,000-operation report.html load in Chromium",
    target: "<= 2000 ms",
    from: (r) => r.htmlReport?.loadMs,
    met: (ms) => ms <= 2000,
    show: (ms) => `${ms.toFixed(0)} ms`,
  },
  {
    goal: "MCP shim start-up before the server is spawned",
    target: "< 150 ms",
    from: (r) => r.mcpShim?.shimStartUpMs,
    met: (ms) => ms < 150,
    show: (ms) => `${ms.toFixed(1)} ms`,
  },
];

function signed(value) {
  return `${value < 0 ? "-" : "+"} ${Math.abs(value).toFixed(2)}`;
}

/** One entry per goal: { goal, target, actual, status } with status `met`, `missed` or `not measured`. */
export function judgeGoals(results) {
  return GOALS.map(({ goal, target, from, met, show }) => {
    const value = from(results);
    if (value === undefined || value === null) return { goal, target, actual: null, status: "not measured" };
    return { goal, target, actual: show(value), status: met(value) ? "met" : "missed" };
  });
}
