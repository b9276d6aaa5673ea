// "The same processes started by hand": what a user would do without Agent Chaos for a
// scenario with managed dependencies — start every dependency at once (a fresh port for
// `{port}`), poll each readiness path every READY_POLL_MS, run the workload against the
// dependencies directly with the same variables, stop the dependencies (SIGTERM, all at once).
// Every process gets a session of its own, as under Agent Chaos (see spawnTracked).
// Returns the wall time of each phase.
import { readFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { dirname, resolve } from "node:path";
import { parse } from "yaml";
import { runCommand, spawnTracked, stopChild } from "./processes.mjs";

const READY_POLL_MS = 10; // tighter than the CLI's polling: that gap counts as overhead
const READY_TIMEOUT_MS = 10_000;

/** The dependencies and workload of a scenario file (schema 1 or 2), ready to start by hand. */
export async function handPlan(scenarioPath) {
  const scenario = parse(await readFile(scenarioPath, "utf8"));
  const folder = dirname(scenarioPath);
  const entries =
    scenario.schema_version === 1
      ? [["dependency", scenario.dependency]]
      : Object.entries(scenario.dependencies ?? {}).filter(([, dependency]) => dependency.type === "http");
  return { scenario, folder, dependencies: entries };
}

/** One run by hand: { code, wallMs, phases: { startedMs, readyMs, workloadMs, stopMs } }. */
export async function runByHand({ scenario, folder, dependencies }) {
  const startedAt = performance.now();
  const children = [];
  try {
    const running = [];
    for (const [name, dependency] of dependencies) {
      const port = dependency.base_url.includes("{port}") ? String(await freePort()) : null;
      const fill = (text) => (port === null ? text : text.replaceAll("{port}", port));
      const baseUrl = fill(dependency.base_url).replace(/\/+$/, "");
      const start = dependency.start;
      if (start) {
        const [command, ...args] = start.command.map(fill);
        const env = {
          ...process.env,
          ...Object.fromEntries(Object.entries(start.env ?? {}).map(([k, v]) => [k, fill(v)])),
        };
        children.push(
          spawnTracked(command, args, { cwd: resolve(folder, start.cwd ?? "."), env, detached: true }),
        );
      }
      running.push({ name, dependency, baseUrl, readiness: start?.readiness?.path ?? "/" });
    }
    const spawnedAt = performance.now();
    await Promise.all(running.map((entry) => waitUntilReady(`${entry.baseUrl}${entry.readiness}`)));
    const readyAt = performance.now();
    const { workload } = scenario;
    const variables = {};
    for (const { name, dependency, baseUrl } of running) {
      if (scenario.schema_version === 1) {
        variables.AGENTCHAOS_PROXY_URL = baseUrl;
        if (workload.proxy_url_env) variables[workload.proxy_url_env] = baseUrl;
        continue;
      }
      variables[`AGENTCHAOS_${name.toUpperCase()}_URL`] = baseUrl;
      if (dependency.url_env) variables[dependency.url_env] = baseUrl;
      if (running.length === 1) variables.AGENTCHAOS_PROXY_URL = baseUrl;
    }
    const env = { ...process.env, ...workload.env, ...variables };
    const [command, ...args] = workload.command;
    const cwd = resolve(folder, workload.cwd ?? ".");
    const { code } = await runCommand(command, args, { cwd, env, timeoutMs: 30_000, detached: true });
    const workloadDoneAt = performance.now();
    await Promise.all(children.map((child) => stopChild(child)));
    const stoppedAt = performance.now();
    return {
      code,
      wallMs: stoppedAt - startedAt,
      phases: {
        startedMs: spawnedAt - startedAt,
        readyMs: readyAt - spawnedAt,
        workloadMs: workloadDoneAt - readyAt,
        stopMs: stoppedAt - workloadDoneAt,
      },
    };
  } finally {
    await Promise.all(children.map((child) => stopChild(child)));
  }
}

function freePort() {
  return new Promise((done, fail) => {
    const server = net.createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

async function waitUntilReady(url) {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const status = await statusOf(url);
    if (status !== null && status >= 200 && status < 400) return;
    await new Promise((done) => setTimeout(done, READY_POLL_MS));
  }
  throw new Error(`${url} was not ready within ${READY_TIMEOUT_MS} ms`);
}

function statusOf(url) {
  return new Promise((done) => {
    const request = http.get(url, { agent: false, timeout: 1000 }, (response) => {
      response.resume();
      response.on("end", () => done(response.statusCode));
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => done(null));
  });
}
