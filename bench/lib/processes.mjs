// Child processes of the bench: started with a pipe on stdin (a child whose parent dies sees
// stdin end and exits), tracked in one set, and stopped by pid at the end, also on error or Ctrl-C.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

const live = new Set();
const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+)/;
const URLS = /http:\/\/127\.0\.0\.1:\d+/g;

/**
 * Starts `node [execArgv] script args` and waits for its first stdout line naming a loopback URL.
 * Returns { url, urls, pid, stop() } (`urls`: every URL on that line); `stop()` resolves with the
 * lines the child printed after its URL line.
 */
export async function startServer(script, args = [], { execArgv = [], cwd, env, timeoutMs = 10_000 } = {}) {
  const child = track(
    spawn(process.execPath, [...execArgv, script, ...args], {
      cwd,
      env: env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  const lines = [];
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const reader = createInterface({ input: child.stdout });
  const readerClosed = once(reader, "close");
  let url = null;
  let urls = [];
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${script} printed no URL within ${timeoutMs} ms`)),
        timeoutMs,
      );
      reader.on("line", (line) => {
        const match = URL_LINE.exec(line);
        if (url !== null) lines.push(line);
        else if (match) {
          url = match[1];
          urls = line.match(URLS);
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited with ${code} before listening: ${stderr.trim()}`));
      });
    });
    const stop = async () => {
      await stopChild(child);
      await readerClosed;
      return lines;
    };
    return { url, urls, pid: child.pid, stop };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Runs a command to its end; resolves with { code, wallMs, stdout }. Killed after `timeoutMs`; `detached`: see spawnTracked. */
export async function runCommand(command, args, { cwd, env, timeoutMs = 30_000, detached = false } = {}) {
  const started = performance.now();
  const child = track(
    spawn(command, args, { cwd, env: env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached }),
  );
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout = (stdout + chunk).slice(-4000);
  });
  child.stderr.resume();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code, signal] = await once(child, "exit");
  const wallMs = performance.now() - started;
  clearTimeout(timer);
  return { code: code ?? signal, wallMs, stdout };
}

/** Sends SIGTERM, then SIGKILL when the child has not exited after `graceMs`. */
export async function stopChild(child, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawns a tracked child (stdin ignored, output discarded); stop it with `stopChild`. `detached`
 * gives it a session of its own, as Agent Chaos gives its children: with the kernel's
 * autogroup scheduling a session is a scheduling group, so a comparison with Agent Chaos's
 * children is fair only when the reference's children have theirs.
 */
export function spawnTracked(command, args, { cwd, env, detached = false } = {}) {
  return track(spawn(command, args, { cwd, env: env ?? process.env, stdio: "ignore", detached }));
}

/** Stops every child still running (used on error, Ctrl-C and the global deadline). */
export async function stopAll() {
  await Promise.all([...live].map((child) => stopChild(child, 1000)));
}

function track(child) {
  live.add(child);
  child.once("exit", () => live.delete(child));
  child.once("error", () => live.delete(child));
  return child;
}
