import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";

/**
 * A killed runner cannot clean up after itself, so a small process that outlives it does: the
 * supervisor. Every process group a `ManagedProcess` starts is registered with it at once
 * (`+<pgid>` on the supervisor's stdin) and released when the group has ended (`-<pgid>`).
 * The supervisor's stdin is the runner's lifeline: when it closes — the runner exited, crashed
 * or was killed with SIGKILL — every group still registered gets SIGTERM, then SIGKILL once one
 * second has passed with any member left, and the supervisor exits.
 *
 * A runner killed between spawning a process and registering it (a few milliseconds while the
 * new process executes its program) cannot tell the supervisor about it. So every managed
 * process also carries the supervisor's marker in its environment, and on Linux the supervisor
 * looks for processes that carry it (in /proc) and ends their groups too, looking again for a
 * while in case one is still starting.
 *
 * It is a POSIX shell program, so that it is running within milliseconds even on a loaded
 * machine (a second Node.js process takes a tenth of a second or more to start), needs no file
 * of its own, and costs about a megabyte. It runs in a session of its own (no terminal signals
 * reach it; SIGINT and SIGHUP are ignored), holds no output of the runner and never keeps the
 * runner alive. One supervisor serves the whole runner process; should it die, the next
 * registration starts another with every live group.
 */
const MARKER = "AGENTCHAOS_SUPERVISION_ID";

const SCRIPT = `
trap '' INT HUP
token=$1
groups=" "
while IFS= read -r line; do
  case $line in
    +[0-9]*) groups="$groups\${line#+} " ;;
    -[0-9]*) kept=" "; for g in $groups; do [ "$g" = "\${line#-}" ] || kept="$kept$g "; done; groups=$kept ;;
  esac
done
marked() {
  [ -d /proc ] || return 0
  grep -lzx "${MARKER}=$token" /proc/[0-9]*/environ 2>/dev/null | while IFS= read -r file; do
    pid=\${file#/proc/}
    read -r stat < "/proc/\${pid%/environ}/stat" 2>/dev/null || continue
    set -- \${stat##*) }
    echo "$3"
  done
}
live=""
term() {
  for g in "$@"; do
    [ "$g" -gt 1 ] 2>/dev/null || continue
    case " $live " in *" $g "*) continue ;; esac
    kill -TERM -$g 2>/dev/null && live="$live $g"
  done
}
term $groups $(marked)
tries=0
while [ $tries -lt 10 ]; do
  sleep 0.1
  term $(marked)
  left=""
  for g in $live; do kill -0 -$g 2>/dev/null && left="$left $g"; done
  live=$left
  tries=$((tries + 1))
  [ -n "$live" ] || [ $tries -lt 3 ] || exit 0
done
for g in $live; do kill -KILL -$g 2>/dev/null; done
exit 0
`;

class Supervisor {
  readonly #groups = new Set<number>();
  readonly #token = randomUUID();
  #child: ChildProcess | null = null;

  /** What every managed process gets in its environment: the supervisor's marker. */
  get environment(): Readonly<Record<string, string>> {
    return { [MARKER]: this.#token };
  }

  /**
   * Starts the supervisor unless it runs. Called before a leader is spawned, so that its
   * registration right after the spawn is one write on an open pipe: a SIGKILL of the runner
   * can fall only into the few microseconds between the two.
   */
  ensureRunning(): void {
    if (this.#child === null) this.#start();
  }

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
      child = spawn("/bin/sh", ["-c", SCRIPT, "agentchaos-supervisor", this.#token], {
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
