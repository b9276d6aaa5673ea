import { connect, type Socket } from "node:net";
import { PassThrough, type Readable, type Writable } from "node:stream";
import type { CliIo } from "../../support/cli-io.js";
import { groupAlive, signalGroup } from "../../support/process-group.js";
import { onMessages, type RunMessage, send } from "../stdio/channel.js";
import { stopGroup } from "../stop-group.js";
import type { ShimArgs } from "./args.js";
import { ShimRelay } from "./relay.js";
import { type ReplayedServer, replayedServer, tapLines } from "./replayed-server.js";
import { type ServerProcess, spawnServer } from "./server-process.js";

/** The CLI's streams and signals (an interruption stops the server), and the byte streams the shim relays. */
export interface ShimIo extends Pick<CliIo, "stderr" | "env" | "interrupt" | "forceStop"> {
  readonly stdin: Readable;
  readonly stdout: Writable;
}

/**
 * The run answers a join within this time, or the shim gives up (docs/limits.md). The run answers
 * at once unless the machine starves it; a run that is gone is known sooner, by its closed channel.
 */
const JOIN_TIMEOUT_MS = 30_000;
/** After the agent closed its input, the server gets this long to exit by itself. */
const EOF_GRACE_MS = 1000;
/** SIGTERM to SIGKILL. */
const STOP_GRACE_MS = 1000;
/** How long the shim waits for the run to confirm the end of the session. */
const ENDED_TIMEOUT_MS = 3000;

function line(io: ShimIo, dependency: string, problem: string): void {
  io.stderr.write(`agentchaos mcp-shim (${dependency}): ${problem}\n`);
}

/**
 * `agentchaos mcp-shim`: joins the run, spawns the real server, relays until the session ends,
 * and returns the shim's exit code (1 when it cannot join or cannot start the server).
 */
export async function runShim(args: ShimArgs, io: ShimIo): Promise<number> {
  const joined = await join(args);
  if (typeof joined === "string") {
    line(io, args.dependency, `cannot join the run (${joined})`);
    return 1;
  }
  const { channel, welcome, messages } = joined;
  if (welcome.replay === "serve") {
    const replayed = replayedServer(channel);
    send(channel, { type: "spawned", pid: process.pid });
    return relayUntilEnd(replayed, channel, welcome, messages, io, args.dependency);
  }
  const server = await spawnServer(welcome.command, welcome.cwd, { ...io.env, ...welcome.env });
  if (typeof server === "string") {
    send(channel, { type: "spawn_failed", errno: server });
    channel.end();
    line(io, args.dependency, `cannot start the MCP server (${server})`);
    return 1;
  }
  send(channel, { type: "spawned", pid: server.pid });
  return relayUntilEnd(server, channel, welcome, messages, io, args.dependency);
}

type Welcome = Extract<RunMessage, { type: "welcome" }>;

interface Joined {
  readonly channel: Socket;
  readonly welcome: Welcome;
  /** Receives every run message after the welcome. */
  readonly messages: { handler: (message: RunMessage) => void };
}

function join(args: ShimArgs): Promise<Joined | string> {
  return new Promise((resolve) => {
    const channel = connect(args.channel);
    channel.setNoDelay(true);
    const messages = { handler: (_message: RunMessage) => {} };
    let settled = false;
    const fail = (problem: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      channel.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => fail("no answer from the run"), JOIN_TIMEOUT_MS);
    channel.on("error", () => fail("no run is listening on its channel"));
    channel.once("close", () => fail("the run closed its channel"));
    channel.once("connect", () =>
      send(channel, { type: "join", secret: args.secret, dependency: args.dependency }),
    );
    onMessages<RunMessage>(channel, (message) => {
      if (settled) {
        messages.handler(message);
        return;
      }
      if (message.type !== "welcome") {
        fail("refused: wrong secret, wrong dependency, or the run is ending");
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve({ channel, welcome: message, messages });
    });
  });
}

async function relayUntilEnd(
  server: ServerProcess | ReplayedServer,
  channel: Socket,
  welcome: Welcome,
  messages: Joined["messages"],
  io: ShimIo,
  dependency: string,
): Promise<number> {
  const replayed = "deliver" in server ? server : null;
  let serverIn: Writable = server.stdin;
  if (welcome.replay === "record") {
    // Recording: the run gets a copy of every line, both ways (docs/replay.md).
    const tapped = new PassThrough();
    tapLines(tapped, channel, "agent");
    tapped.pipe(server.stdin);
    tapLines(server.stdout, channel, "server");
    serverIn = tapped;
  }
  const relay = new ShimRelay({
    agentIn: io.stdin,
    agentOut: io.stdout,
    serverIn,
    serverOut: server.stdout,
    channel,
    targets: Array.isArray(welcome.targets) ? welcome.targets : [],
  });
  if (Array.isArray(welcome.canaries)) relay.watch(welcome.canaries);
  let stopping: Promise<void> | null = null;
  const stop = (graceMs: number): void => {
    if (replayed !== null) replayed.stop();
    else if (stopping === null) stopping = stopGroup(server.pid, graceMs, server.exited);
    else if (graceMs === 0) signalGroup(server.pid, "SIGKILL");
  };
  let ended!: () => void;
  const endedByRun = new Promise<void>((resolve) => {
    ended = resolve;
  });
  messages.handler = (message) => {
    if (message.type === "decision") relay.decided(message.key, message);
    else if (message.type === "ack") relay.acknowledged(message.key);
    else if (message.type === "canaries") relay.watch(message.canaries);
    else if (message.type === "stop") stop(STOP_GRACE_MS);
    else if (message.type === "ended") ended();
    else if (message.type === "server_line") replayed?.deliver(message.line);
  };
  let channelLost = false;
  channel.once("close", () => {
    channelLost = true;
    ended();
    stop(STOP_GRACE_MS);
  });
  relay.onRefused = (problem) => line(io, dependency, problem);
  relay.onDisconnect = () => {
    relay.closeAgentOutput();
    io.stdin.destroy();
    stop(STOP_GRACE_MS);
  };
  let eofTimer: NodeJS.Timeout | undefined;
  relay.onAgentEnd = () => {
    serverIn.end();
    eofTimer = setTimeout(() => stop(STOP_GRACE_MS), EOF_GRACE_MS);
  };
  const onInterrupt = (): void => stop(STOP_GRACE_MS);
  const onForce = (): void => stop(0);
  io.interrupt?.addEventListener("abort", onInterrupt, { once: true });
  io.forceStop?.addEventListener("abort", onForce, { once: true });
  if (io.forceStop?.aborted) onForce();
  else if (io.interrupt?.aborted) onInterrupt();
  relay.start();

  const exitCode = await server.exited;
  clearTimeout(eofTimer);
  await outputDrained(server.stdout);
  // The leader is gone; anything it left in its group goes too.
  if (replayed === null && groupAlive(server.pid)) await stopGroup(server.pid, STOP_GRACE_MS);
  await stopping;
  relay.settle();
  send(channel, { type: "exited", exitCode });
  const timer = setTimeout(ended, ENDED_TIMEOUT_MS);
  await endedByRun;
  clearTimeout(timer);
  io.interrupt?.removeEventListener("abort", onInterrupt);
  io.forceStop?.removeEventListener("abort", onForce);
  relay.closeAgentOutput();
  io.stdin.destroy();
  server.stdin.destroy();
  channel.end();
  channel.destroy();
  if (channelLost) io.stderr.write("agentchaos mcp-shim: the run ended\n");
  return exitCode !== null && exitCode >= 0 && exitCode <= 255 ? exitCode : 1;
}

/** The server's output is complete once its pipe ends (bounded: a grandchild may hold it open). */
function outputDrained(stdout: Readable): Promise<void> {
  if (stdout.readableEnded || stdout.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stdout.destroy();
      resolve();
    }, 500);
    stdout.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
