import { createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CassetteUpstream,
  type CassetteUpstreamOptions,
  REPLAY_MISMATCH_STATUS,
  type ReplayMismatch,
} from "../../src/proxy/cassette-upstream.js";
import { type RunningProxy, startProxy } from "../../src/proxy/server.js";
import { CassetteBuilder, type Interaction, readCassette } from "../../src/replay/cassette.js";
import { MemorySink } from "../helpers/fault-proxy.js";
import { tempDir } from "../helpers/temp.js";

const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const OFFSETS = [0, 30, 60, 90];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A proxy serving dependency `llm` from a cassette of `interactions`, as a run does. */
async function served(
  interactions: Interaction[],
  over: Partial<CassetteUpstreamOptions> = {},
  sink = new MemorySink(),
): Promise<RunningProxy> {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const builder = new CassetteBuilder({
    dependency: "llm",
    protocol: "http",
    match: ["method", "path"],
    appendTo: null,
  });
  for (const interaction of interactions) builder.add(interaction);
  const path = join(dir.path, "llm.jsonl");
  await builder.write(path);
  const upstream = new CassetteUpstream({
    dependency: "llm",
    cassette: await readCassette(path, "llm.jsonl", { dependency: "llm", protocol: "http" }),
    timing: "recorded",
    ignoreJsonFields: [],
    liveBaseUrl: null,
    onMismatch: () => undefined,
    ...over,
  });
  const proxy = await startProxy({
    upstreamBaseUrl: "http://127.0.0.1:9",
    sink,
    dependency: "llm",
    upstream,
    replayMismatchStatus: REPLAY_MISMATCH_STATUS,
  });
  cleanups.push(() => proxy.close());
  return proxy;
}

const stream: Interaction = {
  method: "GET",
  path: "/sse",
  query_hash: EMPTY,
  body_hash: EMPTY,
  request_shape: {},
  status: 200,
  headers: { "content-type": "text/event-stream", "x-request-id": "r1" },
  events: OFFSETS.map((offset, i) => ({ offset_ms: offset, text: `data: ${i}\n\n` })),
};

/** Each chunk of a response with its arrival time from the moment the request was sent. */
function chunksOf(url: string): Promise<{
  status: number;
  headers: Record<string, unknown>;
  chunks: { sinceSent: number; text: string }[];
}> {
  return new Promise((resolve, reject) => {
    const sent = performance.now();
    get(url, (response) => {
      const chunks: { sinceSent: number; text: string }[] = [];
      response.on("data", (chunk: Buffer) =>
        chunks.push({ sinceSent: performance.now() - sent, text: chunk.toString("utf8") }),
      );
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, chunks }),
      );
      response.on("error", reject);
    }).on("error", reject);
  });
}

describe("serving from a cassette", () => {
  it("keeps an event stream's recorded gaps with timing recorded: no event before its offset", async () => {
    const upstream = await served([stream]);
    // A first exchange loads the proxy's stream relay; the second (the same answer again) is measured.
    await chunksOf(`${upstream.url}/sse`);
    const { status, headers, chunks } = await chunksOf(`${upstream.url}/sse`);
    expect(status).toBe(200);
    expect(headers["x-request-id"]).toBe("r1");
    expect(chunks.map((chunk) => chunk.text).join("")).toBe("data: 0\n\ndata: 1\n\ndata: 2\n\ndata: 3\n\n");
    // Timers may fire late, never early: no event arrives before its offset, counted from the
    // moment the request was sent (its answer cannot have started before).
    const arrivals: number[] = [];
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.text.split("\n\n").length - 1; i++) arrivals.push(chunk.sinceSent);
    }
    for (const [i, at] of arrivals.entries()) expect(at).toBeGreaterThanOrEqual((OFFSETS[i] as number) - 1);
    const seen = arrivals.length;
    expect(seen).toBe(4);
  });

  it("writes the whole stream at once with timing immediate", async () => {
    const upstream = await served([stream], { timing: "immediate" });
    const { chunks } = await chunksOf(`${upstream.url}/sse`);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.text).toBe("data: 0\n\ndata: 1\n\ndata: 2\n\ndata: 3\n\n");
  });

  it("answers a request never recorded 599 with a JSON body naming it, and reports the mismatch", async () => {
    const mismatches: ReplayMismatch[] = [];
    const sink = new MemorySink();
    const upstream = await served([stream], { onMismatch: (mismatch) => mismatches.push(mismatch) }, sink);
    const { status, chunks } = await chunksOf(`${upstream.url}/other`);
    expect(status).toBe(599);
    const body = JSON.parse(chunks.map((chunk) => chunk.text).join(""));
    expect(body.error).toMatchObject({
      type: "replay_mismatch",
      dependency: "llm",
      method: "GET",
      path: "/other",
    });
    expect(body.error.message).toBe(
      "replay mismatch on llm: GET /other was not recorded, and no GET /other was recorded at all",
    );
    expect(mismatches).toEqual([
      {
        dependency: "llm",
        method: "GET",
        path: "/other",
        nearestFound: false,
        pointers: [],
        canaryCarried: false,
      },
    ]);
  });

  it("forwards a request never recorded to the live upstream with on_mismatch live", async () => {
    const live: Server = createServer((_request, response) => response.end("live answer"));
    await new Promise<void>((resolve) => live.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => live.close(() => resolve())));
    const mismatches: ReplayMismatch[] = [];
    const upstream = await served([stream], {
      liveBaseUrl: `http://127.0.0.1:${(live.address() as AddressInfo).port}`,
      onMismatch: (mismatch) => mismatches.push(mismatch),
    });
    const { status, chunks } = await chunksOf(`${upstream.url}/other`);
    expect(status).toBe(200);
    expect(chunks.map((chunk) => chunk.text).join("")).toBe("live answer");
    expect(mismatches).toEqual([]);
  });
});
