import { once } from "node:events";
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { guardSocket } from "../../src/proxy/write-barrier.js";
import { eventually } from "../helpers/eventually.js";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/**
 * A connected pair on loopback; `received` collects what reaches the client, `closed` settles
 * when the client's side has closed.
 */
async function pair(): Promise<{ server: Socket; received: () => string; closed: Promise<void> }> {
  const listener: Server = createServer();
  listener.listen(0, "127.0.0.1");
  await once(listener, "listening");
  const address = listener.address() as { port: number };
  const client = connect(address.port, "127.0.0.1");
  const [server] = (await once(listener, "connection")) as [Socket];
  let text = "";
  client.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  client.on("error", () => {});
  const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
  closers.push(() => {
    client.destroy();
    server.destroy();
    listener.close();
  });
  return { server, received: () => text, closed };
}

/** A recorder stand-in: `record()` leaves an event unwritten until `flush`. */
function events(log: string[]) {
  let unwritten = 0;
  return {
    record: () => {
      unwritten += 1;
    },
    flush: () => {
      if (unwritten > 0) log.push(`write ${unwritten} events`);
      unwritten = 0;
    },
  };
}

/** Spies on the socket's own write (the barrier calls it in the end). */
function spyWrites(socket: Socket, log: string[]): void {
  const write = socket.write;
  socket.write = function (this: Socket, ...args: unknown[]) {
    log.push(`send ${String(args[0])}`);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof socket.write;
}

describe("write barrier", () => {
  it("writes the waiting events before a send, and sends at once when nothing waits", async () => {
    const { server, received } = await pair();
    const log: string[] = [];
    const recorder = events(log);
    spyWrites(server, log);
    guardSocket(server, recorder);
    server.write("a");
    recorder.record();
    server.write("b");
    expect(log).toEqual(["send a", "write 1 events", "send b"]);
    await eventually(() => received() === "ab", { what: 'the client received "ab"' });
  });

  it("writes once per send at most: a send with nothing waiting writes nothing, then a close writes the rest", async () => {
    const { server, received, closed } = await pair();
    const log: string[] = [];
    const recorder = events(log);
    spyWrites(server, log);
    guardSocket(server, recorder);
    recorder.record();
    recorder.record();
    server.write("1");
    server.write("2");
    recorder.record();
    server.end();
    expect(log).toEqual(["write 2 events", "send 1", "send 2", "write 1 events"]);
    await closed;
    expect(received()).toBe("12");
  });

  it("cuts the connection instead of sending when the events cannot be written", async () => {
    const { server, received, closed } = await pair();
    const log: string[] = [];
    spyWrites(server, log);
    guardSocket(server, {
      flush: () => {
        throw new Error("disk full");
      },
    });
    server.write("secret");
    await closed;
    expect(log).toEqual([]);
    expect(server.destroyed).toBe(true);
    expect(received()).toBe("");
  });
});
