import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";

/**
 * A killed runner cannot clean up after itself, so a small process that outlives it does: the
 * supervisor. Every process group a `ManagedProcess` starts is registered with it at once
 * (`+<pgid>` on the supervisor's stdin) and released when the group has ended (`-<pgid>`).
 * The supervisor's stdin is the runner's lifeline: when it closes — the runner exited, crashed
 * or was killed with SIGKILL — every group still registered gets SIGTERM, then SIGKILL once one
 * second has passed with any member left, and the supervisor exits.
 *
 * It is a POSIX shell program, so that it is running within milliseconds even on a loaded
 * machine (a second Node.js process takes a tenth of a second or more to start, and the runner
 * may be killed before then), needs no file of its own, and costs about a megabyte. It runs in a
 * session of its own (no terminal signals reach it; SIGINT and SIGHUP are ignored), holds no
 * output of the runner and never keeps the runner alive. One supervisor serves the whole runner
 * process; should it die, the next registration starts another with every live group.
 */
const SCRIPT = `
trap '' INT HUP
groups=" "
while IFS= read -r line; do
  case $line in
    +[0-9]*) [ "\${line#+}" -gt 1 ] 2>/dev/null && groups="$groups\${line#+} " ;;
    -[0-9]*) kept=" "; for g in $groups; do [ "$g" = "\${line#-}" ] || kept="$kept$g "; done; groups=$kept ;;
  esac
done
live=""
for g in $groups; do kill -TERM -$g 2>/dev/null && live="$live $g"; done
[ -n "$live" ] || exit 0
tries=0
while [ $tries -lt 10 ]; do
  sleep 0.1
  left=""
  for g in $live; do kill -0 -$g 2>/dev/null && left="$left $g"; done
  [ -n "$left" ] || exit 0
  live=$left
  tries=$((tries + 1))
done
for g in $live; do kill -KILL -$g 2>/dev/null; done
exit 0
`;

class Supervisor {
  readonly #groups = new Set<number>();
  #child: ChildProcess | null = null;

  /** Hands a process group to the supervisor (call right after spawning its leader). */
  register(pgid: number): void {
    if (pgid <= 1) return;
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
    let child: ChildProcess;
    try {
      child = spawn("/bin/sh", ["-c", SCRIPT], {
        stdio: ["pipe", "ignore", "ignore"],
        detached: true,
        env: { PATH: "/usr/bin:/bin" },
        cwd: "/",
      });
    } catch {
      return;
    }
    const forget = (): void => {
      if (this.#child === child) this.#child = null;
    };
    child.on("error", forget);
    child.on("exit", forget);
    const lifeline = child.stdin as Socket | null;
    lifeline?.on("error", () => {});
    lifeline?.unref();
    child.unref();
    this.#child = child;
    this.#send([...this.#groups].map((pgid) => `+${pgid}\n`).join(""));
  }

  #send(text: string): void {
    if (text !== "") this.#child?.stdin?.write(text);
  }
}

/** The runner's one supervisor. */
export const supervisor = new Supervisor();
