// Replay (`timing: immediate`) against live pass-through, same agent: measured once the build
// has replay. Until then this says why there is no figure, and the goal line shows it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DIST } from "../lib/paths.mjs";

export async function replay() {
  if (!existsSync(join(DIST, "replay"))) return { built: false, reason: "replay not built" };
  return { built: true, reason: "replay is built; this bench has no replay measurement yet" };
}
