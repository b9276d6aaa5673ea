/**
 * After the whole run: no process a test started may outlive it. A process left behind has been
 * re-parented away from the test worker that started it; it is found by what points at this
 * repository (its command line or its working folder), by having started during the run and by
 * a parent that is not a program of this repository (pid 1 or a reaper). It
 * is killed, and the run fails naming its command line, so the leak is fixed where it began.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, sep } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const TICKS_PER_SECOND = 100;

interface ProcessFacts {
  readonly pid: number;
  readonly parent: number;
  /** Seconds since the epoch. */
  readonly startedAt: number;
  readonly commandLine: string;
  readonly cwd: string | null;
}

function bootTime(): number {
  const line = readFileSync("/proc/stat", "utf8")
    .split("\n")
    .find((text) => text.startsWith("btime "));
  return Number(line?.slice(6) ?? 0);
}

function factsOf(pid: number, boot: number): ProcessFacts | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    let cwd: string | null = null;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // Not ours to read, or gone.
    }
    return {
      pid,
      parent: Number(fields[1]),
      startedAt: boot + Number(fields[19]) / TICKS_PER_SECOND,
      commandLine,
      cwd,
    };
  } catch {
    return null;
  }
}

function allProcesses(): Map<number, ProcessFacts> {
  const boot = bootTime();
  const found = new Map<number, ProcessFacts>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const facts = factsOf(Number(entry), boot);
    if (facts !== null && facts.commandLine !== "") found.set(facts.pid, facts);
  }
  return found;
}

/** `pid` and its ancestors, nearest first, up to (not including) pid 1. */
function lineage(pid: number, processes: Map<number, ProcessFacts>): number[] {
  const chain: number[] = [];
  for (let current = processes.get(pid); current !== undefined && current.pid > 1; ) {
    chain.push(current.pid);
    current = processes.get(current.parent);
  }
  return chain;
}

function pointsHere(facts: ProcessFacts): boolean {
  return (
    facts.commandLine.includes(ROOT + sep) ||
    (facts.cwd !== null && `${facts.cwd}${sep}`.startsWith(ROOT + sep))
  );
}

export default function setup(): (() => void) | undefined {
  if (process.platform !== "linux") return undefined;
  const startedAt = Date.now() / 1000 - 1;
  return () => {
    const processes = allProcesses();
    const ancestors = new Set(lineage(process.pid, processes));
    // This process, its ancestors and its descendants are the run itself.
    const related = (pid: number): boolean =>
      ancestors.has(pid) || lineage(pid, processes).includes(process.pid);
    // A process whose parent also points here still belongs to a running program (another test
    // run in this checkout, say): only the re-parented ones are strays.
    const orphaned = (facts: ProcessFacts): boolean => {
      const parent = processes.get(facts.parent);
      return parent === undefined || !pointsHere(parent);
    };
    const strays = [...processes.values()].filter(
      (facts) => facts.startedAt >= startedAt && pointsHere(facts) && orphaned(facts) && !related(facts.pid),
    );
    if (strays.length === 0) return;
    for (const stray of strays) {
      try {
        process.kill(stray.pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }
    // A teardown's error is printed but does not fail the run: the exit code does.
    process.stderr.write(
      `Processes started by the tests outlived them (now killed):\n${strays.map((stray) => `  ${stray.commandLine}`).join("\n")}\n`,
    );
    process.exitCode = 1;
  };
}
