import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { beforeDeadline } from "../../helpers/eventually.js";

/** Absolute path of the bundled `examples/` folder. */
export const EXAMPLES_DIR = fileURLToPath(new URL("../../../examples/", import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Program {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  stdout(): string;
  stderr(): string;
}

export interface Finished extends Exit {
  stdout: string;
  stderr: string;
  /** stdout split into lines, without the empty last one. */
  lines: string[];
}

const running = new Set<Program>();

/** Starts `node <script> ...args` from `examples/`; the environment is the test's plus `env`. */
export function startProgram(script: string, args: string[] = [], env: Record<string, string> = {}): Program {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: EXAMPLES_DIR,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    out += text;
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    err += text;
  });
  const exited = new Promise<Exit>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal }));
    child.on("error", () => resolve({ code: null, signal: null }));
  });
  const program: Program = { child, exited, stdout: () => out, stderr: () => err };
  running.add(program);
  void exited.then(() => running.delete(program));
  return program;
}

/** Runs a program to completion (killed after `deadlineMs`) and returns its exit and output. */
export async function runProgram(
  script: string,
  env: Record<string, string> = {},
  deadlineMs = 15_000,
): Promise<Finished> {
  const program = startProgram(script, [], env);
  const timer = setTimeout(() => program.child.kill("SIGKILL"), deadlineMs);
  try {
    const exit = await program.exited;
    const stdout = program.stdout();
    return { ...exit, stdout, stderr: program.stderr(), lines: stdout.split("\n").filter((l) => l !== "") };
  } finally {
    clearTimeout(timer);
  }
}

/** Starts one of the fake servers on a free port and resolves once it printed its listening URL. */
export async function startServer(
  script: string,
  extraArgs: string[] = [],
): Promise<{ url: string; program: Program }> {
  return untilListening(startProgram(script, ["--port", "0", ...extraArgs]), script);
}

/** Starts the shipped fake model (`agentchaos fake-llm`, built) on a free port. */
export function startFakeLlm(extraArgs: string[] = []): Promise<{ url: string; program: Program }> {
  const program = startProgram("../dist/bin/agentchaos.js", ["fake-llm", "--port", "0", ...extraArgs]);
  return untilListening(program, "agentchaos fake-llm");
}

/** Resolves once the program printed `listening on <url>` (fails if it exits first, or after 10 s). */
async function untilListening(program: Program, script: string): Promise<{ url: string; program: Program }> {
  const stdout = program.child.stdout as Readable;
  const listening = async () => {
    for (;;) {
      const match = /listening on (http:\/\/\S+)\n/.exec(program.stdout());
      if (match?.[1] !== undefined) return match[1];
      const exited = await Promise.race([program.exited, once(stdout, "data").then(() => null)]);
      if (exited !== null) throw new Error(`${script} exited before listening: ${program.stderr()}`);
    }
  };
  const url = await beforeDeadline(listening(), { what: `${script} listening` });
  return { url, program };
}

/** SIGTERM, then SIGKILL after two seconds; resolves with how the program ended. */
export async function stopProgram(program: Program, signal: NodeJS.Signals = "SIGTERM"): Promise<Exit> {
  if (program.child.exitCode === null && program.child.signalCode === null) program.child.kill(signal);
  const timer = setTimeout(() => program.child.kill("SIGKILL"), 2_000);
  try {
    return await program.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Stops every program still running; call from `afterEach`. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((program) => stopProgram(program)));
}

export async function closeServer(server: import("node:http").Server): Promise<void> {
  server.closeAllConnections();
  if (server.listening) await once(server.close(), "close");
}
