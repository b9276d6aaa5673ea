import { groupAlive, signalGroup } from "../support/process-group.js";

const POLL_MS = 20;

/**
 * Stops every process of a group: SIGTERM, up to `graceMs` for all of them to go, then
 * SIGKILL. `leaderExited`, when known, ends the first wait early, and until it settles the group
 * counts as alive without a scan of the process table. A group already gone is fine.
 */
export async function stopGroup(
  pgid: number,
  graceMs: number,
  leaderExited: Promise<unknown> | null = null,
): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, graceMs > 0 ? "SIGTERM" : "SIGKILL");
  const deadline = Date.now() + graceMs;
  let leaderGone = leaderExited === null;
  void leaderExited?.then(() => {
    leaderGone = true;
  });
  const alive = (): boolean => !leaderGone || groupAlive(pgid);
  while (alive() && Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise((resolve) => {
      timer = setTimeout(resolve, POLL_MS);
    });
    await (leaderGone || leaderExited === null ? tick : Promise.race([tick, leaderExited]));
    clearTimeout(timer);
  }
  if (groupAlive(pgid)) signalGroup(pgid, "SIGKILL");
}
