// 7. MCP stdio shim: (a) its start-up, the time from spawning `agentchaos mcp-shim` to the run
// recording that the real server was spawned (median of STARTS, next to `node -e 0`); (b) the
// overhead of one tool call through the shim against the same SDK client and server talking
// directly over stdio: median of CALLS sequential calls each, in interleaved blocks; a call that a
// fault targets also waits for the run's decision, measured with a fault that never selects.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";

const STARTS = 20;
const CALLS = 1000;
const BLOCK = 100;
const WARMUP = 100;
const SERVER = new URL("../servers/mcp-echo-server.mjs", import.meta.url).pathname;

/** A fault that targets every echo call but selects none: each call waits for the run's decision. */
const NEVER_SELECTED = {
  id: "targets-echo",
  dependency: "bench",
  type: "mcp_error",
  code: -32603,
  target: { kind: "mcp", method: "tools/call", name: "echo" },
  trigger: { kind: "occurrence_schedule", occurrences: [1_000_000_000] },
  expect: "recover",
};

async function startHost(sink, faults = []) {
  const { startMcpStdioHost } = await import(new URL("../../dist/mcp/stdio/host.js", import.meta.url).href);
  const host = await startMcpStdioHost({
    dependency: { name: "bench", type: "mcp_stdio", command: [process.execPath, SERVER], cwd: ROOT, env: {} },
    faults,
    sink,
    runDir: ROOT,
    runId: "bench",
    interrupt: new AbortController().signal,
  });
  return {
    host,
    command: host.env.AGENTCHAOS_BENCH_COMMAND,
    args: JSON.parse(host.env.AGENTCHAOS_BENCH_ARGS),
  };
}

/**
 * Spawn of the shim → SESSION_STARTED (the server is spawned), one shim at a time, each next to
 * a `node -e 0` run so that machine load hits both alike.
 */
async function startUps() {
  let sessionStarted = null;
  const { host, command, args } = await startHost({
    emit(payload) {
      if (payload.kind === "SESSION_STARTED") sessionStarted?.();
    },
  });
  const samples = [];
  const nodeSamples = [];
  try {
    for (let i = 0; i < STARTS; i++) {
      nodeSamples.push((await runCommand(process.execPath, ["-e", "0"], { cwd: ROOT })).wallMs);
      const started = new Promise((resolve) => {
        sessionStarted = resolve;
      });
      const t0 = performance.now();
      const shim = spawn(command, args, { stdio: ["pipe", "ignore", "inherit"] });
      await started;
      samples.push(performance.now() - t0);
      const exited = new Promise((resolve) => shim.once("close", resolve));
      shim.stdin.end();
      await exited;
    }
  } finally {
    await host.close();
  }
  return { samples, nodeSamples };
}

async function connect(command, args) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args }));
  return client;
}

async function timeCalls(client, count, into) {
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
    into?.push(performance.now() - t0);
  }
}

export async function mcpShim() {
  const { samples: startUpMs, nodeSamples } = await startUps();

  let events = 0;
  const { host, command, args } = await startHost({
    emit() {
      events++;
    },
  });
  const targetedHost = await startHost({ emit() {} }, [NEVER_SELECTED]);
  const direct = await connect(process.execPath, [SERVER]);
  const shimmed = await connect(command, args);
  const targeted = await connect(targetedHost.command, targetedHost.args);
  const samples = { direct: [], shim: [], targeted: [] };
  try {
    await timeCalls(direct, WARMUP);
    await timeCalls(shimmed, WARMUP);
    await timeCalls(targeted, WARMUP);
    for (let done = 0; done < CALLS; done += BLOCK) {
      await timeCalls(direct, BLOCK, samples.direct);
      await timeCalls(shimmed, BLOCK, samples.shim);
      await timeCalls(targeted, BLOCK, samples.targeted);
    }
  } finally {
    await direct.close();
    await shimmed.close();
    await targeted.close();
    await host.close();
    await targetedHost.host.close();
  }
  const directMs = median(samples.direct);
  const shimMs = median(samples.shim);
  return {
    starts: STARTS,
    calls: CALLS,
    nodeStartMs: round(median(nodeSamples), 1),
    shimStartUpMs: round(median(startUpMs), 1),
    shimStartUpAboveNodeMs: round(median(startUpMs) - median(nodeSamples), 1),
    shimStartUpMaxMs: round(Math.max(...startUpMs), 1),
    directCallMs: round(directMs),
    shimCallMs: round(shimMs),
    addedPerCallMs: round(shimMs - directMs),
    targetedCallMs: round(median(samples.targeted)),
    addedPerTargetedCallMs: round(median(samples.targeted) - directMs),
    eventsRecorded: events,
  };
}
