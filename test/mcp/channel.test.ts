import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { onMessages } from "../../src/mcp/stdio/channel.js";
import { tempDir } from "../helpers/temp.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A Unix socket server reading messages with `limit`; resolves with the client's end of one connection. */
async function channelPair(
  limit: number,
): Promise<{ client: Socket; received: unknown[]; closed: Promise<void> }> {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const received: unknown[] = [];
  let serverSide: Socket | null = null;
  const server = createServer((socket) => {
    serverSide = socket;
    socket.on("error", () => {});
    onMessages(socket, (message) => received.push(message), limit);
  });
  const path = join(dir.path, "channel.sock");
  server.listen(path);
  await once(server, "listening");
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const client = connect(path);
  client.on("error", () => {});
  cleanups.push(() => {
    client.destroy();
    (serverSide as Socket | null)?.destroy();
  });
  await once(client, "connect");
  return { client, received, closed: once(client, "close").then(() => undefined) };
}

describe("the run's channel", () => {
  it("reads messages split anywhere, a message over several writes included", async () => {
    const { client, received } = await channelPair(1024);
    const text = `${JSON.stringify({ type: "a", text: "x".repeat(900) })}\n{"type":"b"}\n`;
    for (let at = 0; at < text.length; at += 7) client.write(text.slice(at, at + 7));
    await new Promise<void>((resolve) => {
      const check = () => (received.length === 2 ? resolve() : setImmediate(check));
      check();
    });
    expect(received).toEqual([{ type: "a", text: "x".repeat(900) }, { type: "b" }]);
  });

  it("closes the connection of a peer whose message runs past the limit", async () => {
    const { client, received, closed } = await channelPair(1024);
    client.write('{"type":"first"}\n');
    client.write(`{"type":"huge","text":"${"x".repeat(2048)}`);
    await closed;
    expect(received).toEqual([{ type: "first" }]);
  });
});
