// 5. Memory: peak RSS of the Agent Chaos proxy process (schema 1, and schema 2 with two
// dependencies sharing the connections; for context, the bare proxy) while CONNECTIONS concurrent
// keep-alive connections send requests through it for DURATION_S seconds, and of the whole
// `agentchaos run` process under the same load.
import { once } from "node:events";
import { readdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LOAD_TOOL, loadOnce, summariseLoads } from "../lib/load.mjs";
import { CLI, ROOT } from "../lib/paths.mjs";
import { spawnTracked, stopChild } from "../lib/processes.mjs";
import { round } from "../lib/stats.mjs";
import { startAgentChaosProxy, startBareProxy, startUpstream } from "../lib/targets.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const CONNECTIONS = 1000;
const DURATION_S = 4;

export async function memory() {
  const upstream = await startUpstream();
  try {
    const agentchaos = await measureProxy(upstream.url, startAgentChaosProxy);
    const agentchaosV2 = await measureProxy(upstream.url, (url) =>
      startAgentChaosProxy(url, { dependencies: ["llm", "tools"] }),
    );
    const bare = await measureProxy(upstream.url, startBareProxy);
    const cliRun = await measureCliRun(upstream.url);
    return {
      tool: LOAD_TOOL,
      connections: CONNECTIONS,
      durationS: DURATION_S,
      agentchaos,
      agentchaosV2,
      bare,
      cliRun,
    };
  } finally {
    await upstream.stop();
  }
}

async function measureProxy(upstreamUrl, start) {
  const proxy = await start(upstreamUrl);
  let stopped = false;
  try {
    const idleKb = await statusKb(proxy.pid, "VmRSS");
    const urls = proxy.urls ?? [proxy.url];
    const connections = Math.floor(CONNECTIONS / urls.length);
    const loads = await Promise.all(
      urls.map((url) => loadOnce(`${url}/json`, { connections, durationS: DURATION_S, timeoutS: 20 })),
    );
    const load = summariseLoads(
      loads.length === 1
        ? loads
        : [
            {
              ...loads[0],
              requests: loads.reduce((sum, one) => sum + one.requests, 0),
              errors: loads.reduce((sum, one) => sum + one.errors, 0),
              non2xx: loads.reduce((sum, one) => sum + one.non2xx, 0),
            },
          ],
    );
    const hwmKb = await statusKb(proxy.pid, "VmHWM");
    stopped = true;
    const reported = await proxy.stop();
    const peakKb = Math.max(hwmKb ?? 0, reported?.maxRssKb ?? 0);
    return {
      idleRssMb: idleKb === null ? null : round(idleKb / 1024, 1),
      peakRssMb: peakKb > 0 ? round(peakKb / 1024, 1) : null,
      memoryPeaksMb: reported?.memoryPeaksMb ?? null,
      rps: load.rps,
      p99Ms: load.p99Ms,
      errors: load.errors,
      non2xx: load.non2xx,
    };
  } finally {
    if (!stopped) await proxy.stop();
  }
}

/** A `kB` field of /proc/<pid>/status (Linux), or null elsewhere. */
async function statusKb(pid, field) {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

const LOAD_WORKLOAD = fileURLToPath(new URL("../servers/load-workload.mjs", import.meta.url));
const REPORT_MAX_RSS = fileURLToPath(new URL("../lib/report-max-rss.mjs", import.meta.url));

/**
 * The whole `agentchaos run` process (scenario loader, recorder, proxy, analysis, report) while
 * its workload drives CONNECTIONS connections through the proxy: peak RSS of the CLI process.
 */
async function measureCliRun(upstreamUrl) {
  const dir = makeTempDir("agentchaos-bench-run-");
  try {
    const scenario = join(dir, "memory.yaml");
    writeFileSync(
      scenario,
      [
        "schema_version: 1",
        "name: bench-memory",
        "dependency:",
        "  type: http",
        `  base_url: ${upstreamUrl}`,
        "workload:",
        `  command: ${JSON.stringify([process.execPath, LOAD_WORKLOAD])}`,
        `  env: {BENCH_CONNECTIONS: "${CONNECTIONS}", BENCH_DURATION_S: "${DURATION_S}"}`,
        "success:",
        "  exit_code: 0",
        "timeout_seconds: 60",
        "",
      ].join("\n"),
    );
    // The CLI's own peak RSS (getrusage at its exit), the post-run analysis included.
    const rssFile = join(dir, "max-rss");
    const child = spawnTracked(
      process.execPath,
      [
        "--import",
        pathToFileURL(REPORT_MAX_RSS).href,
        CLI,
        "run",
        scenario,
        "--output-dir",
        join(dir, "runs"),
      ],
      { cwd: ROOT, env: { ...process.env, AGENTCHAOS_BENCH_MAX_RSS_FILE: rssFile } },
    );
    const timer = setTimeout(() => stopChild(child), 60_000);
    const [code] = await once(child, "exit");
    clearTimeout(timer);
    const peakKb = Number(await readFile(rssFile, "utf8").catch(() => "0"));
    const runDir = join(dir, "runs", readdirSync(join(dir, "runs"))[0] ?? "");
    const load = JSON.parse(
      (await readFile(join(runDir, "stdout.log"), "utf8")).trim().split("\n").at(-1) ?? "{}",
    );
    return {
      exitCode: code,
      peakRssMb: peakKb > 0 ? round(peakKb / 1024, 1) : null,
      rps: load.rps ?? null,
      errors: load.errors ?? null,
    };
  } finally {
    removeTempDir(dir);
  }
}
