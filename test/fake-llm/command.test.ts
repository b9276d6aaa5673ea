import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, testFolder } from "../helpers/cli.js";
import { beforeDeadline } from "../helpers/eventually.js";
import { post } from "./helpers.js";

interface Running {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
});

/** Starts the built `agentchaos fake-llm` as its own process. */
function start(args: string[]): Running {
  const child = spawn(process.execPath, [BIN, "fake-llm", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  const running: Running = {
    child,
    stdout: "",
    stderr: "",
    exited: new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal }))),
  };
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    running.stdout += text;
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    running.stderr += text;
  });
  void running.exited.then(() => children.delete(child));
  return running;
}

/** Resolves with the printed URL once the process says it listens; throws if it exits first. */
async function listening(running: Running): Promise<string> {
  const exited = running.exited.then(() => null);
  const stdout = running.child.stdout as Readable;
  while (true) {
    const match = /^fake-llm listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(running.stdout);
    if (match?.[1] !== undefined) return match[1];
    const more = await Promise.race([exited, once(stdout, "data")]);
    if (more === null) throw new Error(`fake-llm exited before listening: ${running.stderr}`);
  }
}

const dir = testFolder("each");

describe("agentchaos fake-llm as a process", () => {
  it("prints one line with its URL once ready, serves, and exits 0 on SIGTERM", async () => {
    const running = start(["--port", "0"]);
    const url = await listening(running);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    running.child.kill("SIGTERM");
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.stderr).toBe("");
    expect(running.stdout.split("\n")).toHaveLength(2);
  });

  it("exits 0 on SIGINT, also in the middle of a slow stream", async () => {
    // A pause between events far longer than the deadline below: only SIGINT can end it in time.
    const running = start(["--token-delay-ms", "60000"]);
    const url = await listening(running);
    const response = await post(`${url}/v1/messages`, {
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    running.child.kill("SIGINT");
    expect(await beforeDeadline(running.exited, { what: "the exit after SIGINT" })).toEqual({
      code: 0,
      signal: null,
    });
    await reader.cancel().catch(() => {});
  });

  it("says in one line that its port is taken, and exits 3", async () => {
    const blocker = createServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    try {
      const port = (blocker.address() as { port: number }).port;
      const running = start(["--port", String(port)]);
      expect(await running.exited).toEqual({ code: 3, signal: null });
      expect(running.stderr).toBe(`fake-llm: cannot listen on 127.0.0.1:${port} (EADDRINUSE)\n`);
      expect(running.stdout).toBe("");
    } finally {
      blocker.close();
    }
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "with a --script, answers from it and exits 0 on %s",
    async (signal) => {
      const script = join(dir.path, "rules.yaml");
      await writeFile(script, "- when: {user_contains: weather}\n  answer: {text: It is sunny.}\n");
      const running = start(["--script", script]);
      const url = await listening(running);
      const response = await post(`${url}/v1/messages`, {
        messages: [{ role: "user", content: "the weather?" }],
      });
      expect(JSON.stringify(await response.json())).toContain("It is sunny.");
      running.child.kill(signal);
      expect(await beforeDeadline(running.exited)).toEqual({ code: 0, signal: null });
      expect(running.stderr).toBe("");
    },
  );

  it.runIf(process.platform === "linux")(
    "refuses a --script that is a FIFO at once, in one line, with exit 2",
    async () => {
      const script = join(dir.path, "rules.yaml");
      execFileSync("mkfifo", [script]);
      const running = start(["--script", script]);
      expect(await beforeDeadline(running.exited)).toEqual({ code: 2, signal: null });
      expect(running.stderr).toBe(`fake-llm: invalid script ${script}: is a FIFO, not a regular file\n`);
      expect(running.stdout).toBe("");
    },
  );
});
