// The server processes the measurements load: the upstream, the bare reference proxy, nginx
// (when installed) and Agent Chaos's proxy (with its events.jsonl in a temp folder removed on stop).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DIST } from "./paths.mjs";
import { startServer } from "./processes.mjs";
import { makeTempDir, removeTempDir } from "./temp-dirs.mjs";

const servers = fileURLToPath(new URL("../servers/", import.meta.url));
export const DIST_PROXY = resolve(DIST, "proxy", "server.js");

export function startUpstream() {
  return startServer(join(servers, "upstream.mjs"));
}

/** The bare reference proxy; `stop()` resolves with { maxRssKb, memoryPeaksMb } as it reported them. */
export async function startBareProxy(upstreamUrl, { execArgv = [] } = {}) {
  const server = await startServer(join(servers, "bare-proxy.mjs"), ["--upstream", upstreamUrl], {
    execArgv,
  });
  const stop = async () => (await server.stop()).map(parseJson).find((value) => value?.maxRssKb) ?? null;
  return { ...server, stop };
}

/**
 * Starts Agent Chaos's proxy towards `upstreamUrl`: schema 1; or with `dependencies` (names)
 * one schema-2 proxy per name sharing one recorder (`urls` in the same order); or with
 * `armedStreamFault` a schema-2 stream fault that selects every `/sse` stream and never reaches
 * its cut point. `dist` picks the build (default: the one under test). `stop()` resolves with
 * { events, maxRssKb } as the child reported them on exit.
 */
export async function startAgentChaosProxy(
  upstreamUrl,
  { execArgv = [], dependencies = [], armedStreamFault = false, dist = DIST } = {},
) {
  const proxyModule = resolve(dist, "proxy", "server.js");
  if (!existsSync(proxyModule)) throw new Error(`${proxyModule} is missing (run \`npm run build\`)`);
  const dir = makeTempDir("agentchaos-bench-");
  try {
    const args = ["--upstream", upstreamUrl, "--events", join(dir, "events.jsonl")];
    if (dependencies.length > 0) args.push("--dependencies", dependencies.join(","));
    if (armedStreamFault) args.push("--armed-stream-fault", "yes");
    const env = { ...process.env, AGENTCHAOS_BENCH_DIST: dist };
    const server = await startServer(join(servers, "agentchaos-proxy.mjs"), args, { execArgv, env });
    const stop = async () => {
      try {
        const lines = await server.stop();
        const report = lines.map(parseJson).find((value) => value && typeof value.maxRssKb === "number");
        return report ?? { events: null, maxRssKb: null };
      } finally {
        removeTempDir(dir);
      }
    };
    return { ...server, stop };
  } catch (error) {
    removeTempDir(dir);
    throw error;
  }
}

function parseJson(line) {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
