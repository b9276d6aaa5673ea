// 11. Relays: the time one message of 1, 8, 24 and 64 MiB takes through each path a message
// passes, next to the same message without Agent Chaos, so that linear time shows as a steady
// MB/s and a steady ratio. Median of RUNS interleaved runs per size (a path slower than SLOW_MS at
// one size is run once at the larger ones, and skipped at a size it would take over SKIP_MS for).
// `node bench/run.mjs relays` runs this section alone.
//
// - shim, agent -> server / server -> agent: an MCP `tools/call` line through a real
//   `agentchaos mcp-shim` process (its run's channel served here), against the same server spawned
//   directly; timed from the first byte written to the answer line read whole and parsed (the
//   server parses every request line too, as any reader of JSON-RPC must).
// - shim, refused: one message of REFUSED_MIB (over the 64 MiB stdio limit) each way: the time to
//   the error answer the agent gets in its place, next to the direct pipe carrying it whole; the
//   note says whether the run recorded a `proxy_error` and quotes the shim's message.
// - run's channel: one channel message carrying the message (as a synthetic answer does), read by
//   the channel's own reader, against a reader that only looks for the newline.
// - HTTP, MCP answer as an SSE event / SSE event through the proxy / MCP request body: through the
//   MCP proxy or the HTTP proxy (in this process), against the upstream directly. Request bodies
//   keep the proxy's 10 MiB limit: larger ones show the status the proxy answers.
// - SSE splitting, workload echo: the splitters alone fed 64 KiB chunks, against joining the
//   chunks once and decoding them (SSE data) or looking for the newline in each (the others).
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MIB, payload, readLines } from "../lib/big-message.mjs";
import { CLI, fromDist, ROOT } from "../lib/paths.mjs";
import { startServer, stopChild } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const SIZES_MIB = [1, 8, 24, 64];
const RUNS = 3;
const REFUSED_MIB = 65;
const SLOW_MS = 10_000;
const SKIP_MS = 60_000;
const CHUNK = 64 * 1024;
const CALL_TIMEOUT_MS = 300_000;
const servers = fileURLToPath(new URL("../servers/", import.meta.url));
const LINE_SERVER = join(servers, "mcp-line-server.mjs");

/**
 * Times `direct` and `relay` (each returns the milliseconds of one run, or a status text) for
 * every size. A run that fails ends the relay's row there; a size that would take longer than
 * SKIP_MS at the speed seen so far is skipped.
 */
async function measure(relay, sizes, direct, through, rows) {
  let runs = RUNS;
  let previous = null;
  for (const mib of sizes) {
    const bytes = mib * MIB;
    const row = { relay, mib, directMs: null, relayMs: null, mbPerS: null, ratio: null, status: null };
    rows.push(row);
    if (previous !== null && previous.ms * (mib / previous.mib) > SKIP_MS) {
      row.status = `skipped (over ${SKIP_MS / 1000} s expected)`;
      continue;
    }
    const samples = { direct: [], relay: [] };
    try {
      for (let run = 0; run < runs; run++) {
        samples.direct.push(await direct(bytes));
        const result = await through(bytes);
        if (typeof result === "string") row.status = result;
        else samples.relay.push(result);
      }
    } catch (error) {
      row.status = error instanceof Error ? error.message : String(error);
      previous = { mib, ms: Number.POSITIVE_INFINITY };
      continue;
    }
    row.directMs = round(median(samples.direct), 1);
    if (samples.relay.length === 0) continue;
    const relayMs = median(samples.relay);
    if (relayMs > SLOW_MS) runs = 1;
    previous = { mib, ms: relayMs };
    row.relayMs = round(relayMs, 1);
    row.mbPerS = round(mib / 1.048576 / (relayMs / 1000), 0);
    row.ratio = round(relayMs / median(samples.direct), 2);
  }
}

/** A process speaking newline-delimited JSON-RPC on stdio, one call at a time. */
function stdioPeer(command, args) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], cwd: ROOT });
  child.stdin.on("error", () => {});
  let errors = "";
  child.stderr.on("data", (chunk) => {
    errors = `${errors}${chunk}`.slice(-4096);
  });
  let waiting = null;
  readLines(child.stdout, (line) => waiting?.(line));
  let id = 0;
  let exited = null;
  child.once("exit", (code) => {
    exited = `${command} exited (${code})`;
    waiting?.(null);
  });
  const call = (name, argsHead, argsBody, argsTail) =>
    new Promise((resolve, reject) => {
      id += 1;
      const started = performance.now();
      const timer = setTimeout(() => waiting?.(null), CALL_TIMEOUT_MS);
      waiting = (line) => {
        waiting = null;
        clearTimeout(timer);
        if (line === null) reject(new Error(exited ?? `no answer within ${CALL_TIMEOUT_MS / 1000} s`));
        else {
          // The agent reads its answer, as a real client does, wherever the answer comes from.
          const answer = JSON.parse(line.toString("utf8"));
          if (answer.id !== id) reject(new Error(`answer for id ${answer.id}, expected ${id}`));
          else resolve({ ms: performance.now() - started, bytes: line.length, error: answer.error ?? null });
        }
      };
      if (exited !== null) {
        waiting(null);
        return;
      }
      child.stdin.write(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${argsHead}`,
      );
      if (argsBody !== "") child.stdin.write(argsBody);
      child.stdin.write(`${argsTail}}}\n`);
    });
  return {
    nextId: () => id + 1,
    /** A request line of exactly `bytes` bytes (without its newline). */
    async upload(bytes) {
      const head = '{"data":"';
      const tail = '"}';
      const envelope = `{"jsonrpc":"2.0","id":${id + 1},"method":"tools/call","params":{"name":"upload","arguments":${head}${tail}}}`;
      return (await call("upload", head, payload(bytes - envelope.length), tail)).ms;
    },
    /**
     * A message of `bytes` bytes the given way, through whatever answers; resolves with the time
     * and the JSON-RPC error answered in its place (null when the whole answer came).
     */
    async whole(way, bytes) {
      if (way === "upload") {
        const head = '{"data":"';
        const tail = '"}';
        return call("upload", head, payload(bytes), tail);
      }
      return call("download", `{"bytes":${bytes}`, "", "}");
    },
    /** The last lines the process wrote to its stderr. */
    errors: () => errors,
    /** An answer line of exactly `bytes` bytes (without its newline). */
    async download(bytes) {
      const envelope = `{"jsonrpc":"2.0","id":${id + 1},"result":{"content":[{"type":"text","text":""}]}}`;
      const answer = await call("download", `{"bytes":${bytes - envelope.length}`, "", "}");
      if (answer.bytes !== bytes) throw new Error(`answer of ${answer.bytes} bytes, expected ${bytes}`);
      return answer.ms;
    },
    async stop() {
      child.stdin.end();
      await stopChild(child);
    },
  };
}

/**
 * One message over the stdio limit through the shim, `way`: the agent must get an error answer
 * quickly, the run must record a `proxy_error`, and the shim must say why on its stderr.
 */
async function refusedRow(relay, way, direct, shim, recorded, rows) {
  const bytes = REFUSED_MIB * MIB;
  const row = {
    relay,
    mib: REFUSED_MIB,
    directMs: null,
    relayMs: null,
    mbPerS: null,
    ratio: null,
    status: null,
  };
  rows.push(row);
  try {
    const before = recorded.proxyErrors;
    const whole = await direct.whole(way, bytes);
    const refused = await shim.whole(way, bytes);
    row.directMs = round(whole.ms, 1);
    row.relayMs = round(refused.ms, 1);
    row.ratio = round(refused.ms / whole.ms, 2);
    const errorLine = shim.errors().trim().split("\n").at(-1) ?? "";
    const problems = [];
    if (refused.error === null) problems.push("NOT refused: the whole message passed");
    if (recorded.proxyErrors !== before + 1)
      problems.push(`${recorded.proxyErrors - before} proxy_error recorded`);
    row.status =
      problems.length > 0
        ? problems.join("; ")
        : `refused (JSON-RPC ${refused.error.code}), proxy_error recorded; shim: ${errorLine}`;
  } catch (error) {
    row.status = error instanceof Error ? error.message : String(error);
  }
}

async function shimRows(rows) {
  const { startMcpStdioHost } = await fromDist("mcp/stdio/host.js");
  const recorded = { proxyErrors: 0 };
  const host = await startMcpStdioHost({
    dependency: {
      name: "bench",
      type: "mcp_stdio",
      command: [process.execPath, LINE_SERVER],
      cwd: ROOT,
      env: {},
    },
    faults: [],
    sink: {
      emit(event) {
        if (event.kind === "OPERATION_FAILED" && event.failure_kind === "proxy_error") recorded.proxyErrors++;
      },
    },
    runDir: ROOT,
    runId: "bench",
    interrupt: new AbortController().signal,
    cliPath: CLI,
  });
  const command = host.env.AGENTCHAOS_BENCH_COMMAND;
  const args = JSON.parse(host.env.AGENTCHAOS_BENCH_ARGS);
  try {
    // Fresh processes for each way, so that a run cut short leaves nothing behind for the next.
    for (const [relay, way] of [
      ["shim, agent -> server", "upload"],
      ["shim, server -> agent", "download"],
    ]) {
      const direct = stdioPeer(process.execPath, [LINE_SERVER]);
      const shim = stdioPeer(command, args);
      try {
        await direct.upload(1024);
        await shim.upload(1024);
        await measure(
          relay,
          SIZES_MIB,
          (n) => direct[way](n),
          (n) => shim[way](n),
          rows,
        );
        await refusedRow(`${relay}, refused`, way, direct, shim, recorded, rows);
      } finally {
        await Promise.all([direct.stop(), shim.stop()]);
      }
    }
  } finally {
    await host.close();
  }
}

async function channelRows(rows) {
  const { onMessages } = await fromDist("mcp/stdio/channel.js");
  const dir = makeTempDir("agentchaos-bench-channel-");
  let arrived = null;
  const listen = (path, reader) =>
    new Promise((resolve) => {
      const server = net.createServer(reader);
      server.listen(path, () => resolve(server));
    });
  const channel = await listen(join(dir, "channel.sock"), (socket) =>
    onMessages(socket, (message) => arrived?.(message.message.length)),
  );
  const raw = await listen(join(dir, "raw.sock"), (socket) =>
    socket.on("data", (chunk) => {
      if (chunk.indexOf(10) !== -1) arrived?.(0);
    }),
  );
  const open = (path) =>
    new Promise((resolve) => {
      const socket = net.connect(path, () => resolve(socket));
    });
  const [toChannel, toRaw] = await Promise.all([
    open(join(dir, "channel.sock")),
    open(join(dir, "raw.sock")),
  ]);
  const send = (socket) => (bytes) =>
    new Promise((resolve) => {
      const head = '{"type":"decision","key":1,"action":"answer","message":"';
      const tail = '"}\n';
      const started = performance.now();
      arrived = () => resolve(performance.now() - started);
      socket.write(head);
      socket.write(payload(bytes - head.length - tail.length + 1));
      socket.write(tail);
    });
  try {
    await measure("run's channel", SIZES_MIB, send(toRaw), send(toChannel), rows);
  } finally {
    toChannel.destroy();
    toRaw.destroy();
    await Promise.all([channel, raw].map((server) => new Promise((resolve) => server.close(resolve))));
    removeTempDir(dir);
  }
}

/** One HTTP exchange; resolves with its time, or the status text when it is not 200. */
function exchange(agent, url, method, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      url,
      {
        method,
        agent,
        headers:
          body === null
            ? {}
            : { "content-type": "application/json", accept: "application/json, text/event-stream" },
      },
      (response) => {
        response.on("data", () => {});
        response.on("end", () =>
          resolve(
            response.statusCode === 200 ? performance.now() - started : `status ${response.statusCode}`,
          ),
        );
      },
    );
    request.on("error", reject);
    if (body === null) request.end();
    else {
      for (const part of body) request.write(part);
      request.end();
    }
  });
}

function mcpBody(name, bytes) {
  if (name === "download") {
    return [
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"download","arguments":{"bytes":${bytes}}}}`,
    ];
  }
  const head =
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"upload","arguments":{"data":"';
  const tail = '"}}}';
  return [head, payload(bytes - head.length - tail.length), tail];
}

async function httpRows(rows) {
  const { startMcpHttpProxy } = await fromDist("mcp/http/proxy.js");
  const { startProxy } = await fromDist("proxy/server.js");
  const upstream = await startServer(join(servers, "mcp-sse-upstream.mjs"));
  const sink = { emit() {} };
  const mcp = await startMcpHttpProxy({
    upstreamBaseUrl: upstream.url,
    dependency: "bench",
    faults: [],
    sink,
  });
  const proxy = await startProxy({ upstreamBaseUrl: upstream.url, faults: [], dependency: "bench", sink });
  const agents = [0, 1, 2].map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const [directAgent, mcpAgent, proxyAgent] = agents;
  try {
    const post = (agent, base, name) => (bytes) =>
      exchange(agent, `${base}/mcp`, "POST", mcpBody(name, bytes));
    const get = (agent, base) => (bytes) => exchange(agent, `${base}/sse?bytes=${bytes}`, "GET", null);
    await measure(
      "HTTP, MCP answer as an SSE event",
      SIZES_MIB,
      post(directAgent, upstream.url, "download"),
      post(mcpAgent, mcp.url, "download"),
      rows,
    );
    await measure(
      "HTTP, SSE event through the proxy",
      SIZES_MIB,
      get(directAgent, upstream.url),
      get(proxyAgent, proxy.url),
      rows,
    );
    await measure(
      "HTTP, MCP request body",
      SIZES_MIB,
      post(directAgent, upstream.url, "upload"),
      post(mcpAgent, mcp.url, "upload"),
      rows,
    );
  } finally {
    for (const agent of agents) agent.destroy();
    await Promise.all([mcp.close(), proxy.close()]);
    await upstream.stop();
  }
}

function chunksOf(text) {
  const bytes = Buffer.from(text);
  const chunks = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
  return chunks;
}

function timed(work) {
  const started = performance.now();
  work();
  return performance.now() - started;
}

async function splitterRows(rows) {
  const { SseDataReader } = await fromDist("mcp/http/sse-data.js");
  const { SseEventCounter } = await fromDist("support/sse-events.js");
  const { LineSplitter } = await fromDist("runtime/line-splitter.js");
  const event = (bytes) => chunksOf(`event: message\ndata: ${payload(bytes)}\n\n`);
  const joinOnce = (chunks) => () => Buffer.concat(chunks).toString("utf8");
  const scanEach = (chunks) => () => {
    for (const chunk of chunks) chunk.indexOf(10);
  };
  const inProcess = (relay, prepare, direct, through) =>
    measure(
      relay,
      SIZES_MIB,
      async (bytes) => timed(direct(prepare(bytes))),
      async (bytes) => timed(through(prepare(bytes))),
      rows,
    );
  await inProcess("SSE splitting, MCP event data", event, joinOnce, (chunks) => () => {
    const reader = new SseDataReader();
    let events = 0;
    for (const chunk of chunks) events += reader.push(chunk).length;
    if (events !== 1) throw new Error(`${events} events`);
  });
  await inProcess("SSE splitting, event counter", event, scanEach, (chunks) => () => {
    const counter = new SseEventCounter();
    for (const chunk of chunks) counter.scan(chunk);
    if (counter.end() !== 1) throw new Error("event not counted");
  });
  await inProcess(
    "workload output echo lines",
    (bytes) => chunksOf(`${payload(bytes)}\n`),
    scanEach,
    (chunks) => () => {
      const splitter = new LineSplitter(() => {});
      for (const chunk of chunks) splitter.push(chunk);
      splitter.end();
    },
  );
}

export async function relays() {
  const rows = [];
  await shimRows(rows);
  await channelRows(rows);
  await httpRows(rows);
  await splitterRows(rows);
  const at = (relay, mib) => rows.find((row) => row.relay === relay && row.mib === mib);
  return {
    runs: RUNS,
    sizesMib: SIZES_MIB,
    rows,
    shim64MibRatio: {
      agentToServer: at("shim, agent -> server", 64)?.ratio ?? null,
      serverToAgent: at("shim, server -> agent", 64)?.ratio ?? null,
    },
  };
}
