// Locations the measurements share. AGENTCHAOS_BENCH_DIST points the bench at another build of
// Agent Chaos (a `dist` folder), so that a before/after pair runs the same bench code back to back.
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DIST = resolve(process.env.AGENTCHAOS_BENCH_DIST ?? `${ROOT}dist`);
export const CLI = resolve(DIST, "bin", "agentchaos.js");
export const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));

/** Imports a module of the build under test, e.g. `fromDist("events/recorder.js")`. */
export function fromDist(path) {
  return import(pathToFileURL(resolve(DIST, path)).href);
}
