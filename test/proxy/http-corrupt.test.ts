import { describe, expect, it } from "vitest";
import { CanaryBook } from "../../src/faults/corruption/canary-book.js";
import type { ArmableHttpFault } from "../../src/faults/registry.js";
import { startProxy } from "../../src/proxy/server.js";
import type { HttpCorruptFault } from "../../src/scenario/types.js";
import { MemorySink } from "../helpers/fault-proxy.js";
import { onCleanup, startUpstream } from "../helpers/proxy-harness.js";

const RUN_ID = "20261201T000000Z-0badcafe";

function corrupt(pointer: string | null, sinks: string[] = ["stdout", "shop"]): HttpCorruptFault {
  return {
    id: "wrong-price",
    type: "http_corrupt",
    dependency: "shop",
    target: { kind: "http", method: "GET", path: "/items/*" },
    trigger: { kind: "occurrence_schedule", occurrences: [1] } as unknown as HttpCorruptFault["trigger"],
    expect: "handle",
    pointer,
    sinks,
  };
}

/** A proxy for dependency `shop` in front of an upstream that answers `body` with `type`. */
async function shopProxy(fault: HttpCorruptFault, type: string, chunks: string[]) {
  const upstream = await startUpstream((request, response) => {
    if (request.method === "POST") {
      response.writeHead(201, { "content-type": "application/json" }).end("{}");
      return;
    }
    response.writeHead(200, { "content-type": type });
    for (const chunk of chunks) response.write(chunk);
    response.end();
  });
  const sink = new MemorySink();
  const canaries = new CanaryBook(RUN_ID, [fault], sink);
  const proxy = await startProxy({
    upstreamBaseUrl: upstream.url,
    faults: [fault as ArmableHttpFault],
    sink,
    dependency: "shop",
    canaries,
  });
  onCleanup(() => proxy.close());
  return { proxy, sink, canaries, values: canaries.values("wrong-price") };
}

describe("http_corrupt through the proxy", () => {
  it("replaces a JSON value by the canary, recomputes Content-Length, and succeeds fault-related", async () => {
    const { proxy, sink, values } = await shopProxy(corrupt("/price"), "application/json", [
      '{"sku":"lamp",',
      '"price": 19.99 ,"stock":4}',
    ]);
    const response = await fetch(`${proxy.url}/items/lamp`);
    const text = await response.text();
    expect(text).toBe(`{"sku":"lamp","price": ${values.integer} ,"stock":4}`);
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(sink.kinds()).toEqual(["OPERATION_OBSERVED", "FAULT_INJECTED", "OPERATION_SUCCEEDED"]);
    expect(sink.ofKind("FAULT_INJECTED")[0]).toMatchObject({ pointer: "/price", canary_type: "number" });
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({ status_code: 200, fault_related: true });
    expect(JSON.stringify(sink.payloads)).not.toContain(String(values.integer));
    expect(JSON.stringify(sink.payloads)).not.toContain("19.99");
  });

  it("rewrites the first event-stream event whose data has the pointer and keeps the stream's framing", async () => {
    const events = [
      'data: {"delta":"a"}\n\n',
      'data: {"note":{"text":"hel',
      'lo"}}\n\n',
      'data: {"note":{"text":"again"}}\n\n',
      "data: [DONE]\n\n",
    ];
    const { proxy, values } = await shopProxy(corrupt("/note/text"), "text/event-stream", events);
    const response = await fetch(`${proxy.url}/items/lamp`);
    expect(response.headers.get("content-length")).toBeNull();
    expect(await response.text()).toBe(events.join("").replace('"hello"', JSON.stringify(values.text)));
  });

  it("without a pointer corrupts the first leaf value and records its pointer, in a body and in a stream", async () => {
    const body = await shopProxy(corrupt(null), "application/json", ['{"items":[{"sku":"lamp","price":5}]}']);
    const text = await (await fetch(`${body.proxy.url}/items/lamp`)).text();
    expect(text).toBe(`{"items":[{"sku":${JSON.stringify(body.values.text)},"price":5}]}`);
    expect(body.sink.ofKind("FAULT_INJECTED")[0]).toMatchObject({
      pointer: "/items/0/sku",
      canary_type: "string",
    });

    const events = ['data: {"choices":[]}\n\n', 'data: {"choices":[{"index":0}]}\n\n', "data: [DONE]\n\n"];
    const stream = await shopProxy(corrupt(null), "text/event-stream", events);
    const relayed = await (await fetch(`${stream.proxy.url}/items/lamp`)).text();
    expect(relayed).toBe(events.join("").replace('"index":0', `"index":${stream.values.integer}`));
    expect(stream.sink.ofKind("FAULT_INJECTED")[0]).toMatchObject({
      pointer: "/choices/0/index",
      canary_type: "number",
    });

    const none = await shopProxy(corrupt(null), "application/json", ['{"a":null}']);
    expect(await (await fetch(`${none.proxy.url}/items/lamp`)).text()).toBe('{"a":null}');
    expect(none.sink.ofKind("FAULT_INJECTED")).toMatchObject([{ pointer: null, canary_type: null }]);
    expect(none.sink.ofKind("FAULT_NOT_APPLIED")).toMatchObject([{ reason: "pointer_not_found" }]);
  });

  it("records the canary once per sink when a later request carries it, and not_json or pointer_not_found when it cannot act", async () => {
    const { proxy, sink, values } = await shopProxy(corrupt("/price"), "application/json", ['{"price":5}']);
    await (await fetch(`${proxy.url}/items/lamp`)).text();
    for (const quoted of ["5", values.integer.toLocaleString("en-US"), String(values.integer)]) {
      const posted = await fetch(`${proxy.url}/orders`, { method: "POST", body: `{"quoted":${quoted}}` });
      await posted.text();
    }
    const seen = sink.ofKind("CANARY_SEEN");
    const posts = sink.ofKind("OPERATION_OBSERVED").filter((observed) => observed.method === "POST");
    expect(seen).toEqual([
      { kind: "CANARY_SEEN", fault_id: "wrong-price", sink: "shop", operation_id: posts[1]?.operation_id },
    ]);

    const missing = await shopProxy(corrupt("/cost"), "application/json", ['{"price":5}']);
    expect(await (await fetch(`${missing.proxy.url}/items/lamp`)).text()).toBe('{"price":5}');
    expect(missing.sink.ofKind("FAULT_NOT_APPLIED")).toMatchObject([{ reason: "pointer_not_found" }]);
    expect(missing.sink.ofKind("FAULT_INJECTED")).toMatchObject([{ canary_type: null }]);

    const html = await shopProxy(corrupt("/price"), "text/html", ["<p>5</p>"]);
    expect(await (await fetch(`${html.proxy.url}/items/lamp`)).text()).toBe("<p>5</p>");
    expect(html.sink.ofKind("FAULT_NOT_APPLIED")).toMatchObject([{ reason: "not_json" }]);
  });
});
