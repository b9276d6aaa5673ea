// Profiles where Agent Chaos spends CPU, for the bench's findings (not part of `npm run bench`).
//   node bench/profile.mjs proxy [connections] [seconds]   the proxy child under /json load
//   node bench/profile.mjs bare [connections] [seconds]    the same for the bare reference proxy
//   node bench/profile.mjs cli <agentchaos args...>         one CLI invocation
//   node bench/profile.mjs heap [connections] [seconds]    heap snapshot of the proxy halfway
//                                                          through a load (default 1000 connections)
//   node bench/profile.mjs heap-bare [connections] [seconds]   the same for the bare reference proxy
//   node bench/profile.mjs alloc [connections] [seconds]   sampled allocations of the proxy under load
//   node bench/profile.mjs shim [calls]                    the MCP stdio shim: its start and
//                                                          sequential tool calls through it
// Writes the .cpuprofile to bench/results/ and prints self time by area and by function.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summariseProfile } from "./lib/cpu-profile.mjs";
import { summariseAllocations, summariseHeapSnapshot } from "./lib/heap-snapshot.mjs";
import { measureLoad } from "./lib/load.mjs";
import { CLI, ROOT } from "./lib/paths.mjs";
import { runCommand, stopAll } from "./lib/processes.mjs";
import { formatTable } from "./lib/table.mjs";
import { startAgentChaosProxy, startBareProxy, startUpstream } from "./lib/targets.mjs";
import { removeAllTempDirs } from "./lib/temp-dirs.mjs";

const RESULTS = fileURLToPath(new URL("./results/", import.meta.url));
const [mode = "proxy", ...rest] = process.argv.slice(2);
const profileDir = join(RESULTS, `profile-${mode}`);
await rm(profileDir, { recursive: true, force: true });
await mkdir(profileDir, { recursive: true });
const EXEC_ARGV = {
  heap: ["--heapsnapshot-signal=SIGUSR2", "--diagnostic-dir", profileDir],
  "heap-bare": ["--heapsnapshot-signal=SIGUSR2", "--diagnostic-dir", profileDir],
};
const execArgv = EXEC_ARGV[mode] ?? ["--cpu-prof", "--cpu-prof-dir", profileDir];
process.once("SIGINT", async () => {
  await stopAll();
  removeAllTempDirs();
  process.exit(130);
});

if (mode === "alloc") {
  // Sampled allocations of the proxy under load, by function: what each request allocates.
  const [connections = "64", seconds = "5"] = rest;
  const upstream = await startUpstream();
  let requests = 0;
  try {
    process.env.AGENTCHAOS_BENCH_ALLOC_PROFILE = join(profileDir, "allocations.heapprofile");
    const proxy = await startAgentChaosProxy(upstream.url);
    try {
      const load = await measureLoad(`${proxy.url}/json`, {
        connections: Number(connections),
        durationS: Number(seconds),
      });
      requests = load.requests;
      process.stdout.write(`load: ${JSON.stringify(load)}\n`);
      process.kill(proxy.pid, "SIGUSR2");
      const written = join(profileDir, "allocations.heapprofile");
      for (let waited = 0; waited < 60_000 && !existsSync(written); waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await proxy.stop();
    }
  } finally {
    await upstream.stop();
  }
  for (const file of await readdir(profileDir)) {
    if (!file.endsWith(".heapprofile")) continue;
    const rows = await summariseAllocations(join(profileDir, file));
    const total = rows.reduce((sum, row) => sum + row.bytes, 0);
    process.stdout.write(
      `\n${file}: ${Math.round(total / 1024 / 1024)} MB sampled, about ${Math.round(total / Math.max(requests, 1))} bytes per measured request (warm-up included)\n`,
    );
    process.stdout.write(
      `${formatTable(
        ["KB", "function"],
        rows.slice(0, 30).map((row) => [Math.round(row.bytes / 1024), row.name]),
      )}\n`,
    );
  }
  process.exit(0);
} else if (mode === "proxy" || mode === "bare") {
  const [connections = "64", seconds = "5"] = rest;
  const start = mode === "proxy" ? startAgentChaosProxy : startBareProxy;
  const upstream = await startUpstream();
  try {
    const proxy = await start(upstream.url, { execArgv });
    try {
      const load = await measureLoad(`${proxy.url}/json`, {
        connections: Number(connections),
        durationS: Number(seconds),
      });
      process.stdout.write(`load: ${JSON.stringify(load)}\n`);
    } finally {
      await proxy.stop();
    }
  } finally {
    await upstream.stop();
  }
} else if (mode === "heap" || mode === "heap-bare") {
  const [connections = "1000", seconds = "6"] = rest;
  const upstream = await startUpstream();
  try {
    const start = mode === "heap" ? startAgentChaosProxy : startBareProxy;
    const proxy = await start(upstream.url, { execArgv });
    try {
      const loading = measureLoad(`${proxy.url}/json`, {
        connections: Number(connections),
        durationS: Number(seconds),
        warmupS: 0,
        timeoutS: 30,
      });
      await new Promise((resolve) => setTimeout(resolve, (Number(seconds) * 1000) / 2));
      const rss = (await readFile(`/proc/${proxy.pid}/status`, "utf8")).match(/VmRSS:\s+(\d+)/)?.[1];
      process.kill(proxy.pid, "SIGUSR2");
      process.stdout.write(
        `load: ${JSON.stringify(await loading)}\nRSS when the snapshot was taken: ${Math.round(Number(rss) / 1024)} MB\n`,
      );
    } finally {
      await proxy.stop();
    }
  } finally {
    await upstream.stop();
  }
  for (const file of await readdir(profileDir)) {
    if (!file.endsWith(".heapsnapshot")) continue;
    const summary = await summariseHeapSnapshot(join(profileDir, file));
    process.stdout.write(`\n${file}: ${summary.totalMb} MB live\n`);
    const rows = summary.groups.map((group) => [group.kb, group.count, group.name]);
    process.stdout.write(`${formatTable(["self KB", "count", "constructor / type"], rows)}\n`);
  }
  process.exit(0);
} else if (mode === "shim") {
  const [calls = "3000"] = rest;
  const { startHost, connect } = await import("./measure/mcp-shim.mjs");
  const { host, command, args } = await startHost({ emit() {} });
  try {
    const { client } = await connect(command, [...execArgv, ...args]);
    const started = performance.now();
    for (let i = 0; i < Number(calls); i++) {
      await client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
    }
    process.stdout.write(`${calls} calls in ${(performance.now() - started).toFixed(0)} ms\n`);
    await client.close();
  } finally {
    await host.close();
  }
} else if (mode === "cli") {
  const { code, wallMs } = await runCommand(process.execPath, [...execArgv, CLI, ...rest], { cwd: ROOT });
  process.stdout.write(`exit ${code} after ${wallMs.toFixed(0)} ms\n`);
} else {
  process.stderr.write(
    "usage: node bench/profile.mjs proxy|bare|heap [connections] [seconds] | shim [calls] | cli <args...>\n",
  );
  process.exit(2);
}

for (const file of await readdir(profileDir)) {
  const summary = await summariseProfile(join(profileDir, file));
  const rows = (list) => list.map((entry) => [entry.share, entry.selfMs, entry.name]);
  process.stdout.write(`\n${file}: busy ${summary.busyMs} ms, idle ${summary.idleMs} ms\n`);
  process.stdout.write(`${formatTable(["self %", "self ms", "area"], rows(summary.areas.slice(0, 12)))}\n\n`);
  process.stdout.write(`${formatTable(["self %", "self ms", "function"], rows(summary.functions))}\n`);
}
