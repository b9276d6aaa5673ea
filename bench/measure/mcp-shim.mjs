// 7. MCP stdio shim: (a) its start-up, the time from spawning the shim to the run recording
// that the real server was spawned (median of STARTS, next to `node -e 0`, and next to the same
// shim started through the whole `agentchaos` CLI, the way runs started it before it had an
// executable of its own); (b) the overhead of one tool call through the shim against the same
// SDK client and server talking directly over stdio: median of CALLS sequential calls each, in
// interleaved blocks; a call that a fault targets also waits for the run's decision, measured
// with a fault that never selects. Each figure is given in wall time and in CPU time: the
// machine is shared, and load inflates wall times far more than the CPU a process uses.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, fromDist, ROOT } from "../lib/paths.mjs";
import { ownCpuMs, processCpuMs } from "../lib/process-cpu.mjs";
import { runCommand } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const STARTS = 20;
const CALLS = 1000;
const BLOCK = 100;
const WARMUP = 100;
const SERVER = new URL("../servers/mcp-echo-server.mjs", import.meta.url).pathname;
const BARE_RELAY = new URL("../servers/bare-stdio-relay.mjs", import.meta.url).pathname;
/** A bare Node.js that says it is up and then idles: its CPU so far is what starting Node costs. */
const NODE_UP = "process.stdout.write('.'); setInterval(() => {}, 60000);";

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

/** A run's side of one `mcp_stdio` dependency on the echo server, and how a workload starts its shim. */
export async function startHost(sink, faults = [], cliPath = undefined) {
  const { startMcpStdioHost } = await fromDist("mcp/stdio/host.js");
  const host = await startMcpStdioHost({
    dependency: { name: "bench", type: "mcp_stdio", command: [process.execPath, SERVER], cwd: ROOT, env: {} },
    faults,
    sink,
    runDir: ROOT,
    runId: "bench",
    interrupt: new AbortController().signal,
    ...(cliPath === undefined ? {} : { cliPath }),
  });
  return {
    host,
    command: host.env.AGENTCHAOS_BENCH_COMMAND,
    args: JSON.parse(host.env.AGENTCHAOS_BENCH_ARGS),
  };
}

/** The CPU a bare Node.js uses until it runs its first line (read while it idles). */
async function nodeStartCpuMs() {
  const child = spawn(process.execPath, ["-e", NODE_UP], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  const cpuMs = processCpuMs(child.pid);
  const exited = new Promise((resolve) => child.once("close", resolve));
  child.kill("SIGKILL");
  await exited;
  return cpuMs;
}

/** Starts shims of one host one at a time: wall and CPU time from the spawn to SESSION_STARTED. */
async function shimStarter(cliPath) {
  let sessionStarted = null;
  const { host, command, args } = await startHost(
    {
      emit(payload) {
        if (payload.kind === "SESSION_STARTED") sessionStarted?.();
      },
    },
    [],
    cliPath,
  );
  const start = async () => {
    const started = new Promise((resolve) => {
      sessionStarted = resolve;
    });
    const t0 = performance.now();
    const shim = spawn(command, args, { stdio: ["pipe", "ignore", "inherit"] });
    await started;
    const wallMs = performance.now() - t0;
    const cpuMs = processCpuMs(shim.pid);
    const exited = new Promise((resolve) => shim.once("close", resolve));
    shim.stdin.end();
    await exited;
    return { wallMs, cpuMs };
  };
  return { start, close: () => host.close() };
}

/**
 * Spawn of the shim → SESSION_STARTED (the server is spawned), one process at a time, in
 * rounds of `node -e 0`, the shim's own executable and the shim through the CLI, so that
 * machine load hits all three alike.
 */
async function startUps() {
  const own = await shimStarter(undefined);
  const viaCli = await shimStarter(CLI);
  const samples = { node: [], nodeCpu: [], own: [], ownCpu: [], cli: [], cliCpu: [] };
  try {
    for (let i = 0; i < STARTS; i++) {
      samples.node.push((await runCommand(process.execPath, ["-e", "0"], { cwd: ROOT })).wallMs);
      samples.nodeCpu.push(await nodeStartCpuMs());
      const ownStart = await own.start();
      samples.own.push(ownStart.wallMs);
      samples.ownCpu.push(ownStart.cpuMs);
      const cliStart = await viaCli.start();
      samples.cli.push(cliStart.wallMs);
      samples.cliCpu.push(cliStart.cpuMs);
    }
  } finally {
    await own.close();
    await viaCli.close();
  }
  return samples;
}

/** An SDK client on stdio, and the pid of the process it spawned. */
export async function connect(command, args) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command, args });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/**
 * `count` sequential calls: each one's wall time goes to `into.wall`; the CPU the block took in
 * this process (the client, and the run's side of the channel) and in the process `shimPid`
 * (the shim; null: the direct calls) add up in `into.ownCpuMs` and `into.shimCpuMs`.
 */
async function timeCalls({ client, pid: shimPid }, count, into) {
  const own0 = ownCpuMs();
  const shim0 = shimPid === null ? 0 : processCpuMs(shimPid);
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
    into?.wall.push(performance.now() - t0);
  }
  if (into === undefined) return;
  into.ownCpuMs += ownCpuMs() - own0;
  if (shimPid !== null) into.shimCpuMs += processCpuMs(shimPid) - shim0;
}

/**
 * The run's side of the bare relay's round trip: a Unix socket that answers each line with an
 * empty one, the least a run can do before it lets an answer go.
 */
async function startAckServer() {
  const dir = makeTempDir("agentchaos-bench-ack-");
  const path = join(dir, "ack.sock");
  const server = createServer((socket) => {
    socket.on("data", (chunk) => {
      let lines = "";
      for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines += "\n";
      socket.write(lines);
    });
  });
  await new Promise((resolve) => server.listen(path, resolve));
  return {
    path,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      removeTempDir(dir);
    },
  };
}

function callSamples() {
  return { wall: [], ownCpuMs: 0, shimCpuMs: 0 };
}

export async function mcpShim() {
  const starts = await startUps();

  let events = 0;
  const { host, command, args } = await startHost({
    emit() {
      events++;
    },
  });
  const targetedHost = await startHost({ emit() {} }, [NEVER_SELECTED]);
  const acks = await startAckServer();
  const direct = { ...(await connect(process.execPath, [SERVER])), pid: null };
  const shimmed = await connect(command, args);
  const targeted = await connect(targetedHost.command, targetedHost.args);
  // The floor of the shim's design in Node.js: the same process hops without the shim's work.
  const bareRelay = await connect(process.execPath, [BARE_RELAY, "--", process.execPath, SERVER]);
  const bareRoundTrip = await connect(process.execPath, [
    BARE_RELAY,
    "--channel",
    acks.path,
    "--",
    process.execPath,
    SERVER,
  ]);
  const clients = { direct, shim: shimmed, targeted, bareRelay, bareRoundTrip };
  const samples = Object.fromEntries(Object.keys(clients).map((name) => [name, callSamples()]));
  try {
    for (const client of Object.values(clients)) await timeCalls(client, WARMUP);
    for (let done = 0; done < CALLS; done += BLOCK) {
      for (const [name, client] of Object.entries(clients)) await timeCalls(client, BLOCK, samples[name]);
    }
  } finally {
    for (const { client } of Object.values(clients)) await client.close();
    await host.close();
    await targetedHost.host.close();
    await acks.close();
  }
  const directMs = median(samples.direct.wall);
  const shimMs = median(samples.shim.wall);
  const perCall = (ms) => ms / CALLS;
  // The run's side of the channel runs in this process, next to the client: what the shimmed
  // calls took here beyond the direct ones is the run's part.
  const runCpuPerCall = perCall(samples.shim.ownCpuMs - samples.direct.ownCpuMs);
  const shimCpuPerCall = perCall(samples.shim.shimCpuMs);
  const bareMs = median(samples.bareRelay.wall);
  const bareRoundTripMs = median(samples.bareRoundTrip.wall);
  const nodeStart = median(starts.node);
  const nodeCpu = median(starts.nodeCpu);
  return {
    starts: STARTS,
    calls: CALLS,
    nodeStartMs: round(nodeStart, 1),
    shimStartUpMs: round(median(starts.own), 1),
    shimStartUpAboveNodeMs: round(median(starts.own) - nodeStart, 1),
    shimStartUpMaxMs: round(Math.max(...starts.own), 1),
    nodeStartCpuMs: round(nodeCpu, 1),
    shimStartUpCpuMs: round(median(starts.ownCpu), 1),
    shimStartUpCpuAboveNodeMs: round(median(starts.ownCpu) - nodeCpu, 1),
    viaCliStartUpMs: round(median(starts.cli), 1),
    viaCliStartUpAboveNodeMs: round(median(starts.cli) - nodeStart, 1),
    viaCliStartUpCpuAboveNodeMs: round(median(starts.cliCpu) - nodeCpu, 1),
    directCallMs: round(directMs),
    shimCallMs: round(shimMs),
    addedPerCallMs: round(shimMs - directMs),
    targetedCallMs: round(median(samples.targeted.wall)),
    addedPerTargetedCallMs: round(median(samples.targeted.wall) - directMs),
    shimCpuPerCallMs: round(shimCpuPerCall),
    runCpuPerCallMs: round(runCpuPerCall),
    addedCpuPerCallMs: round(shimCpuPerCall + runCpuPerCall),
    bareRelayAddedPerCallMs: round(bareMs - directMs),
    bareRoundTripAddedPerCallMs: round(bareRoundTripMs - directMs),
    bareRoundTripCpuPerCallMs: round(perCall(samples.bareRoundTrip.shimCpuMs)),
    eventsRecorded: events,
  };
}
