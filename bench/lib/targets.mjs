// The three server processes the measurements load: the upstream, the bare reference proxy and
// Agent Chaos's proxy (with its events.jsonl in a temp folder removed on stop).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./processes.mjs";
import { makeTempDir, removeTempDir } from "./temp-dirs.mjs";

const servers = fileURLToPath(new URL("../servers/", import.meta.url));
export const DIST_PROXY = fileURLToPath(new URL("../../dist/proxy/server.js", import.meta.url));

export function startUpstream() {
  return startServer(join(servers, "upstream.mjs"));
}

export function startBareProxy(upstreamUrl, { execArgv = [] } = {}) {
  return startServer(join(servers, "bare-proxy.mjs"), ["--upstream", upstreamUrl], { execArgv });
}

/**
 * Starts Agent Chaos's proxy towards `upstreamUrl` (with `armedStreamFault`: a schema-2 stream
 * fault that selects every `/sse` stream and never reaches its cut point). `stop()` resolves with
 * { events, maxRssKb } as the child reported them on exit.
 */
export async function startAgentChaosProxy(upstreamUrl, { execArgv = [], armedStreamFault = false } = {}) {
  if (!existsSync(DIST_PROXY)) throw new Error("dist/proxy/server.js is missing (run `npm run build`)");
  const dir = makeTempDir("agentchaos-bench-");
  try {
    const args = ["--upstream", upstreamUrl, "--events", join(dir, "events.jsonl")];
    if (armedStreamFault) args.push("--armed-stream-fault", "yes");
    const server = await startServer(join(servers, "agentchaos-proxy.mjs"), args, { execArgv });
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
