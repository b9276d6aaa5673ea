import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { ProxyError } from "../../src/proxy/errors.js";
import { startProxy } from "../../src/proxy/server.js";
import { eventually } from "../helpers/eventually.js";
import { send } from "../helpers/proxy-client.js";
import { LegacyMemorySink, onCleanup, SCHEMA_1_PROXY, startUpstream } from "../helpers/proxy-harness.js";

describe("proxy lifecycle", () => {
  it("listens on 127.0.0.1 at an OS-chosen port", async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({
      upstreamBaseUrl: upstream.url,
      sink: new LegacyMemorySink(),
      ...SCHEMA_1_PROXY,
    });
    onCleanup(() => proxy.close());

    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await send(`${proxy.url}/`)).status).toBe(200);
  });

  it.each(["not a url", "ftp://127.0.0.1/files", ""])(
    "rejects the upstream %j with PROXY_START_FAILED",
    async (url) => {
      const failure = await startProxy({
        upstreamBaseUrl: url,
        sink: new LegacyMemorySink(),
        ...SCHEMA_1_PROXY,
      }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProxyError);
      expect((failure as ProxyError).code).toBe("PROXY_START_FAILED");
    },
  );

  it("closes idle keep-alive connections on both sides and stops listening", async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({
      upstreamBaseUrl: upstream.url,
      sink: new LegacyMemorySink(),
      ...SCHEMA_1_PROXY,
    });
    onCleanup(() => proxy.close());
    const { port } = new URL(proxy.url);

    const socket = connect(Number(port), "127.0.0.1");
    let clientClosed = false;
    socket.on("close", () => {
      clientClosed = true;
    });
    socket.on("error", () => {});
    socket.on("data", () => {});
    socket.write("GET /keep HTTP/1.1\r\nHost: x\r\n\r\n");
    await eventually(() => upstream.hits.length === 1);
    await proxy.close();
    await proxy.close();

    await eventually(() => clientClosed, { what: "the workload's connection closed" });
    const noUpstreamConnection = () =>
      new Promise<boolean>((resolve) =>
        upstream.server.getConnections((_error, count) => resolve(count === 0)),
      );
    await eventually(noUpstreamConnection, { what: "every upstream connection closed" });
    const refused = await send(`${proxy.url}/after`).then(
      () => false,
      () => true,
    );
    expect(refused).toBe(true);
  });
});
