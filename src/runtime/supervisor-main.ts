/**
 * The supervisor process (see supervisor.ts): started by a runner, it learns the process groups
 * the runner starts and ends, one line each on its stdin (`+<pgid>`, `-<pgid>`). Its stdin is
 * the runner's lifeline: when it closes (the runner exited, crashed or was killed with SIGKILL),
 * every group still registered gets SIGTERM, then SIGKILL after at most one second, and the
 * supervisor exits. SIGTERM to the supervisor itself does the same; SIGINT and SIGHUP are ignored
 * (it runs in a session of its own, away from the runner's terminal).
 */
import { groupAlive, signalGroup } from "./process-group.js";

const GRACE_MS = 1000;
const POLL_MS = 20;

const groups = new Set<number>();
let buffered = "";
let reaping = false;

function apply(line: string): void {
  const pgid = Number(line.slice(1));
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return;
  if (line.startsWith("+")) groups.add(pgid);
  else if (line.startsWith("-")) groups.delete(pgid);
}

async function reapAndExit(): Promise<void> {
  if (reaping) return;
  reaping = true;
  const live = [...groups].filter(groupAlive);
  for (const pgid of live) signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + GRACE_MS;
  while (live.some(groupAlive) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  for (const pgid of live) if (groupAlive(pgid)) signalGroup(pgid, "SIGKILL");
  process.exit(0);
}

process.on("SIGINT", () => {});
process.on("SIGHUP", () => {});
process.on("SIGTERM", () => void reapAndExit());
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text: string) => {
  buffered += text;
  let newline = buffered.indexOf("\n");
  while (newline !== -1) {
    apply(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    newline = buffered.indexOf("\n");
  }
});
process.stdin.on("end", () => void reapAndExit());
process.stdin.on("close", () => void reapAndExit());
process.stdin.on("error", () => void reapAndExit());
