/**
 * The server of a replayed `mcp_stdio` dependency, as the shim's relay sees it (docs/replay.md):
 * no process runs; each line the relay writes to it goes to the run, which answers from the
 * cassette with lines of the server's output. It "exits" (code 0) when its input ends or it is
 * stopped. Its pid is the shim's own and is never signalled.
 */
import type { Socket } from "node:net";
import { PassThrough, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { send } from "../stdio/channel.js";
import type { ServerProcess } from "./server-process.js";

export interface ReplayedServer extends ServerProcess {
  /** A line of the replayed server's output, from the run. */
  deliver(line: string): void;
  stop(): void;
}

export function replayedServer(channel: Socket): ReplayedServer {
  const stdout = new PassThrough();
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let exit!: (code: number) => void;
  const exited = new Promise<number | null>((resolve) => {
    exit = resolve;
  });
  const stop = (): void => {
    if (!stdout.writableEnded) stdout.end();
    exit(0);
  };
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += decoder.write(chunk);
      let end = pending.indexOf("\n");
      while (end >= 0) {
        send(channel, { type: "server_line", line: pending.slice(0, end) });
        pending = pending.slice(end + 1);
        end = pending.indexOf("\n");
      }
      done();
    },
    final(done) {
      stop();
      done();
    },
  });
  return {
    pid: process.pid,
    stdin,
    stdout,
    exited,
    deliver(line) {
      if (!stdout.writableEnded) stdout.write(`${line}\n`);
    },
    stop,
  };
}

/** Copies every line of `stream` to the run as `tapped` (recording an `mcp_stdio` dependency). */
export function tapLines(stream: NodeJS.EventEmitter, channel: Socket, from: "agent" | "server"): void {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  stream.on("data", (chunk: Buffer) => {
    pending += decoder.write(chunk);
    let end = pending.indexOf("\n");
    while (end >= 0) {
      send(channel, { type: "tapped", from, line: pending.slice(0, end) });
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
    }
  });
}
