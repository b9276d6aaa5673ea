// CPU time of a running child process, which machine load distorts far less than wall time:
// the sum over its threads of the time they ran (Linux /proc/<pid>/task/*/schedstat, in ns).
import { readdirSync, readFileSync } from "node:fs";

/** Milliseconds of CPU the live threads of `pid` have used so far, or null where /proc cannot tell. */
export function processCpuMs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    }
    return ns / 1e6;
  } catch {
    return null;
  }
}

/** Milliseconds of CPU this process has used (all its threads). */
export function ownCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
