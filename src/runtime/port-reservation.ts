import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How long a reservation keeps a port from the other processes: longer than any start-up. */
const HOLD_MS = 60_000;

/**
 * Reservations of the `{port}` ports chosen on this machine (docs/scenario.md#port). A port is
 * free when it is chosen but bound only when the dependency listens, a start-up later; another
 * Agent Chaos process choosing in the same range meanwhile (a parallel CI job, another suite)
 * could choose it too. A reservation is a file named after the port in a folder of the temp
 * directory, created only if absent; one younger than the hold makes the port taken for every
 * other process. Each is removed when its hold ends or when this process exits; a file left by a
 * killed process is taken over once its hold has passed. Where the folder cannot be written, ports
 * are chosen unreserved, as without it.
 */
export class PortReservations {
  private readonly held = new Map<number, NodeJS.Timeout>();
  private exitHook: (() => void) | null = null;

  constructor(
    private readonly folder: string = join(tmpdir(), "agentchaos-ports"),
    private readonly now: () => number = Date.now,
    private readonly holdMs: number = HOLD_MS,
  ) {}

  /** Reserves `port` for this process; false when another process holds it. */
  reserve(port: number): boolean {
    const file = join(this.folder, String(port));
    try {
      mkdirSync(this.folder, { recursive: true });
      writeFileSync(file, String(process.pid), { flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return true;
      if (!this.stale(file)) return false;
      try {
        writeFileSync(file, String(process.pid));
      } catch {
        return true;
      }
    }
    this.hold(port);
    return true;
  }

  /** Ends this process's reservation of `port` (nothing when it holds none). */
  release(port: number): void {
    const timer = this.held.get(port);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.held.delete(port);
    rmSync(join(this.folder, String(port)), { force: true });
    if (this.held.size === 0 && this.exitHook !== null) {
      process.removeListener("exit", this.exitHook);
      this.exitHook = null;
    }
  }

  private stale(file: string): boolean {
    try {
      return this.now() - statSync(file).mtimeMs >= this.holdMs;
    } catch {
      // Removed meanwhile: free again.
      return true;
    }
  }

  private hold(port: number): void {
    this.held.set(port, setTimeout(() => this.release(port), this.holdMs).unref());
    if (this.exitHook === null) {
      this.exitHook = () => {
        for (const reserved of [...this.held.keys()]) this.release(reserved);
      };
      process.once("exit", this.exitHook);
    }
  }
}
