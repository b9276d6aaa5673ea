import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";

/**
 * A killed runner cannot clean up after itself, so a small process that outlives it does: the
 * supervisor (supervisor-main.ts). Every process group a `ManagedProcess` starts is registered
 * with it at once and released when the group has ended; if the runner goes away first, for
 * whatever reason (SIGKILL included), the supervisor ends what is still registered.
 *
 * One supervisor serves the whole runner process, started with the first managed process. It
 * holds no terminal and no output of the runner, never keeps the runner alive, and is started
 * again (with every live registration) should it ever die. Where its script cannot be found
 * (a bundle that left it out) processes run unsupervised, exactly as before it existed.
 */
const ENTRY = "supervisor-main.js";

/**
 * The supervisor script: next to this module, in both the compiled library (dist/runtime/) and
 * the bundled CLI (dist/bin/); when this module runs from its TypeScript source (the tests), the
 * compiled library's copy.
 */
function entryScript(): string | null {
  const candidates = [
    new URL(`./${ENTRY}`, import.meta.url),
    new URL(`../../dist/runtime/${ENTRY}`, import.meta.url),
  ];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return path;
  }
  return null;
}

class Supervisor {
  readonly #groups = new Set<number>();
  #child: ChildProcess | null = null;
  #script: string | null | undefined;

  /** Hands a process group to the supervisor (call right after spawning its leader). */
  register(pgid: number): void {
    this.#groups.add(pgid);
    if (this.#child === null) this.#start();
    else this.#send(`+${pgid}\n`);
  }

  /** The group has ended: the supervisor forgets it (its id may be reused later). */
  release(pgid: number): void {
    if (!this.#groups.delete(pgid)) return;
    this.#send(`-${pgid}\n`);
  }

  /** The supervisor's pid while one runs (for tests). */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  #start(): void {
    this.#script ??= entryScript();
    if (this.#script === null) return;
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [this.#script], {
        stdio: ["pipe", "ignore", "ignore"],
        detached: true,
        env: {},
        cwd: "/",
      });
    } catch {
      return;
    }
    child.on("error", () => {
      if (this.#child === child) this.#child = null;
    });
    child.on("exit", () => {
      // Should it die, the next registration starts a new one with every live group.
      if (this.#child === child) this.#child = null;
    });
    const lifeline = child.stdin as Socket | null;
    lifeline?.on("error", () => {});
    lifeline?.unref();
    child.unref();
    this.#child = child;
    this.#send([...this.#groups].map((pgid) => `+${pgid}\n`).join(""));
  }

  #send(text: string): void {
    if (text === "") return;
    this.#child?.stdin?.write(text);
  }
}

/** The runner's one supervisor. */
export const supervisor = new Supervisor();
