// Summarises a V8 .cpuprofile (as written by `node --cpu-prof`): self time per function and
// per area (a dist/ file, a package, a Node internal module, GC), as shares of busy time.
import { readFile } from "node:fs/promises";
import { round } from "./stats.mjs";

const IDLE = new Set(["(idle)", "(program)"]);

export async function summariseProfile(path, top = 25) {
  const profile = JSON.parse(await readFile(path, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  profile.samples.forEach((id, index) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });

  const functions = new Map();
  const areas = new Map();
  let busyUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const name = functionName || "(anonymous)";
    if (IDLE.has(name)) {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const key = `${name} ${shortUrl(url)}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
    const area = areaOf(name, url);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const share = (entries) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, selfMs: round(us / 1000, 1), share: round((100 * us) / busyUs, 1) }));
  return {
    busyMs: round(busyUs / 1000, 0),
    idleMs: round(idleUs / 1000, 0),
    functions: share(functions),
    areas: share(areas),
  };
}

function shortUrl(url) {
  if (url === "") return "(native)";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) return url.slice(modules + "/node_modules/".length);
  const dist = url.indexOf("/dist/");
  if (dist >= 0) return url.slice(dist + 1);
  return url.replace(/^file:\/\/.*\/bench\//, "bench/");
}

function areaOf(name, url) {
  if (name === "(garbage collector)") return "(garbage collector)";
  if (url === "") return "(native / V8 builtins)";
  if (url.startsWith("node:")) return url;
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const parts = url.slice(modules + "/node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return shortUrl(url);
}
