import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OperationLedger } from "../../src/events/operation.js";
import { POOL_OPTIONS, Upstream } from "../../src/proxy/forward.js";
import { HeldOperations } from "../../src/proxy/holds.js";
import { identityRule } from "../../src/proxy/identity.js";
import { createPipelineServer } from "../../src/proxy/pipeline-server.js";
import {
  type AnswerSpec,
  type Ending,
  type FramedAnswer,
  type ParityCase,
  parityCase,
  type RequestSpec,
  settleCase,
} from "../helpers/parity-cases.js";
import { type Observation, observe } from "../helpers/parity-run.js";

/** Runs `testCase` through the fast lane and through the full pipeline; they must agree. */
async function bothPaths(testCase: ParityCase): Promise<Observation> {
  const lane = await observe(testCase, "lane");
  const pipeline = await observe(testCase, "pipeline");
  expect(pipeline).toEqual(lane);
  return lane;
}

function request(overrides: Partial<RequestSpec> & { index?: number } = {}): RequestSpec {
  const { index = 0, ...rest } = overrides;
  return {
    method: "GET",
    target: `/p/${index}`,
    version: "HTTP/1.1",
    headers: [],
    body: { kind: "none" },
    close: false,
    hostless: false,
    manyHeaders: false,
    padTo: null,
    ...rest,
  };
}

function answer(overrides: Partial<FramedAnswer> = {}): AnswerSpec {
  return {
    kind: "length",
    status: 200,
    contentType: "application/json",
    pieces: ['{"ok":true}'],
    extraHeaders: [],
    hold: "none",
    interim: false,
    ...overrides,
  };
}

function testCase(
  requests: readonly RequestSpec[],
  answers: readonly AnswerSpec[],
  ending: Ending = { kind: "read-all" },
  options: Partial<Pick<ParityCase, "pipelined" | "schema" | "upstreamDown">> = {},
): ParityCase {
  return settleCase({
    schema: 2,
    pipelined: false,
    upstreamDown: false,
    ...options,
    requests,
    answers,
    ending,
  });
}

const CONTINUE = expect.objectContaining({ status: "HTTP/1.1 100 Continue", headers: [], body: "" });
const kinds = (observation: Observation) => observation.events.map((event) => event.kind);
const statuses = (observation: Observation) => observation.agent.map((response) => response.status);
/** The statuses of the final answers, without interim ones. */
const finals = (observation: Observation) =>
  statuses(observation).filter((status) => !status.startsWith("HTTP/1.1 1"));
const MALFORMED = '{"error": "malformed request"}';

describe("the fast lane and the full pipeline", () => {
  it("answer, forward and record every generated request sequence alike", async () => {
    await fc.assert(
      fc.asyncProperty(parityCase, async (generated) => {
        const lane = await observe(generated, "lane");
        const pipeline = await observe(generated, "pipeline");
        expect(pipeline).toEqual(lane);
      }),
      { numRuns: 80, seed: 20240611, endOnFailure: true },
    );
  });

  describe("a request followed by a half-close", () => {
    it("is answered after two interim 100 Continue, then the connection closes, and its success is recorded", async () => {
      const seen = await bothPaths(testCase([request()], [answer()], { kind: "half-close" }));

      expect(seen.agent).toEqual([
        CONTINUE,
        CONTINUE,
        expect.objectContaining({ status: "HTTP/1.1 200 OK", body: '{"ok":true}', complete: true }),
      ]);
      expect(seen.events).toEqual([
        expect.objectContaining({ kind: "OPERATION_OBSERVED", operation_id: "op1" }),
        expect.objectContaining({ kind: "OPERATION_SUCCEEDED", operation_id: "op1", status_code: 200 }),
      ]);
    });

    it("after pipelined requests answers each of them in order, the one handed to the pipeline included", async () => {
      const chunked = request({
        index: 1,
        method: "POST",
        body: { kind: "chunked", chunks: ["ab", "c"], extensions: true, trailers: true },
      });
      const seen = await bothPaths(
        testCase(
          [request(), chunked, request({ index: 2 })],
          [answer(), answer({ status: 201 }), answer()],
          {
            kind: "half-close",
          },
          { pipelined: true },
        ),
      );

      expect(finals(seen)).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 201 Created", "HTTP/1.1 200 OK"]);
      expect(seen.upstream.map((hit) => hit.body)).toEqual(["", "abc", ""]);
    });

    it("that cuts the request short gets 400 after the answers before it, and the cut request is never an operation", async () => {
      const post = request({ index: 1, method: "POST", body: { kind: "length", text: "0123456789" } });
      for (const keep of [10, 60]) {
        const seen = await bothPaths(
          testCase(
            [request(), post],
            [answer(), answer()],
            { kind: "half-close-incomplete", keep },
            { pipelined: true },
          ),
        );

        expect(statuses(seen)).toEqual([
          "HTTP/1.1 100 Continue",
          "HTTP/1.1 100 Continue",
          "HTTP/1.1 200 OK",
          "HTTP/1.1 400 Bad Request",
        ]);
        expect(seen.agent[3]).toMatchObject({
          body: MALFORMED,
          headers: expect.arrayContaining(["connection: close"]),
        });
        expect(kinds(seen)).toEqual(["OPERATION_OBSERVED", "OPERATION_SUCCEEDED"]);
        expect(seen.upstream).toHaveLength(1);
      }
    });
  });

  describe("a workload that leaves before its answer", () => {
    it("is recorded client_disconnected, never as the upstream's success that came later", async () => {
      const seen = await bothPaths(
        testCase([request(), request({ index: 1 })], [answer(), answer()], { kind: "leave-waiting" }),
      );

      expect(seen.events.filter((event) => event.operation_id === "op2")).toEqual([
        expect.objectContaining({ kind: "OPERATION_OBSERVED" }),
        expect.objectContaining({
          kind: "OPERATION_FAILED",
          failure_kind: "client_disconnected",
          status_code: null,
        }),
      ]);
      expect(statuses(seen)).toEqual(["HTTP/1.1 200 OK"]);
    });

    it("by closing its connection (a FIN) is found gone by the interim answer and recorded client_disconnected", async () => {
      const seen = await bothPaths(testCase([request()], [answer()], { kind: "close-waiting" }));

      expect(seen.events).toEqual([
        expect.objectContaining({ kind: "OPERATION_OBSERVED" }),
        expect.objectContaining({
          kind: "OPERATION_FAILED",
          failure_kind: "client_disconnected",
          status_code: null,
        }),
      ]);
      expect(seen.upstream).toHaveLength(1);
    });

    it("in the middle of an event stream is the schema-2 success closed by the client", async () => {
      const seen = await bothPaths(testCase([request()], [answer()], { kind: "leave-streaming" }));

      expect(seen.events[1]).toMatchObject({
        kind: "OPERATION_SUCCEEDED",
        relayed_events: 1,
        closed_by_client: true,
      });
    });
  });

  describe("requests both paths refuse alike", () => {
    it.each([
      ["a Content-Length list of equal values", { kind: "repeated-length", text: "hello", asList: true }],
      ["two equal Content-Length lines", { kind: "repeated-length", text: "hello", asList: false }],
    ] as const)(
      "%s gets 400 and the connection closes; nothing is forwarded or recorded",
      async (_what, body) => {
        const seen = await bothPaths(
          testCase(
            [request({ method: "POST", body }), request({ index: 1 })],
            [answer(), answer()],
            { kind: "read-all" },
            {
              pipelined: true,
            },
          ),
        );

        expect(seen.agent).toEqual([
          expect.objectContaining({ status: "HTTP/1.1 400 Bad Request", body: MALFORMED }),
        ]);
        expect(seen.upstream).toEqual([]);
        expect(seen.events).toEqual([]);
      },
    );

    it("an HTTP/1.1 request without Host gets 400", async () => {
      const seen = await bothPaths(testCase([request({ hostless: true })], [answer()]));

      expect(seen.agent).toEqual([
        expect.objectContaining({ status: "HTTP/1.1 400 Bad Request", body: MALFORMED }),
      ]);
      expect(seen.events).toEqual([]);
    });

    it("a head that reaches 16 KiB by the shared count gets 431 even when it arrives in one read; one byte less is forwarded", async () => {
      const limit = await bothPaths(
        testCase([request({ padTo: 16_384 })], [answer()], { kind: "read-all" }, { pipelined: true }),
      );
      const under = await bothPaths(testCase([request({ padTo: 16_383 })], [answer()]));

      expect(limit.agent).toEqual([
        expect.objectContaining({
          status: "HTTP/1.1 431 Request Header Fields Too Large",
          body: '{"error": "request head exceeds proxy limit"}',
        }),
      ]);
      expect(limit.upstream).toEqual([]);
      expect(statuses(under)).toEqual(["HTTP/1.1 200 OK"]);
      expect(under.upstream).toHaveLength(1);
    });

    it("a request with 2,100 header lines reaches the upstream whole", async () => {
      const seen = await bothPaths(testCase([request({ manyHeaders: true })], [answer()]));

      expect(seen.upstream[0]?.headers.filter(([name]) => name === "x-m")).toHaveLength(2100);
    });
  });

  describe("upstream failures", () => {
    it.each([
      ["nothing listens", { upstreamDown: true }, answer(), "UpstreamUnreachableError"],
      ["the connection closes before an answer", {}, { kind: "drop", reset: false }, "UpstreamClosedError"],
      ["the connection resets before an answer", {}, { kind: "drop", reset: true }, "UpstreamClosedError"],
      [
        "the answer stops in the middle of its body",
        {},
        { kind: "cut", chunked: false, contentType: "application/json", reset: false },
        "UpstreamClosedError",
      ],
      [
        "the answer is not HTTP",
        {},
        { kind: "invalid", bytes: "SSH-2.0-nope\r\n\r\n" },
        "UpstreamInvalidResponseError",
      ],
      [
        "the answer repeats its length",
        {},
        { kind: "invalid", bytes: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc" },
        "UpstreamInvalidResponseError",
      ],
    ] as const)(
      "%s: the same 502 naming the failure, recorded proxy_error",
      async (_what, options, failure, detail) => {
        const seen = await bothPaths(testCase([request()], [failure], { kind: "read-all" }, options));

        expect(seen.agent).toEqual([
          expect.objectContaining({
            status: "HTTP/1.1 502 Bad Gateway",
            body: `{"error": "upstream request failed", "detail": "${detail}"}`,
          }),
        ]);
        expect(seen.events[1]).toMatchObject({
          kind: "OPERATION_FAILED",
          failure_kind: "proxy_error",
          status_code: 502,
        });
      },
    );

    it("the proxy's 502 to a HEAD keeps its length and sends no body", async () => {
      const seen = await bothPaths(
        testCase(
          [request({ method: "HEAD" }), request({ index: 1 })],
          [{ kind: "drop", reset: false }, answer()],
        ),
      );

      expect(seen.agent[0]).toMatchObject({
        status: "HTTP/1.1 502 Bad Gateway",
        headers: expect.arrayContaining(["content-length: 69"]),
        body: "",
      });
      expect(statuses(seen)).toEqual(["HTTP/1.1 502 Bad Gateway", "HTTP/1.1 200 OK"]);
    });
  });

  it("pipelined requests are observed, forwarded and recorded one at a time, in order", async () => {
    const seen = await bothPaths(
      testCase(
        [request(), request({ index: 1 }), request({ index: 2 })],
        [answer(), answer(), answer()],
        { kind: "read-all" },
        {
          pipelined: true,
        },
      ),
    );

    expect(kinds(seen)).toEqual([
      "OPERATION_OBSERVED",
      "OPERATION_SUCCEEDED",
      "OPERATION_OBSERVED",
      "OPERATION_SUCCEEDED",
      "OPERATION_OBSERVED",
      "OPERATION_SUCCEEDED",
    ]);
  });

  it("relays an upstream header's obs-text bytes as they came, streamed or buffered, and dates an answer that has no date", async () => {
    const header = ["X-Latin", "caf\u00e9"] as const;
    const seen = await bothPaths(
      testCase(
        [request(), request({ index: 1 })],
        [
          answer({ extraHeaders: [header] }),
          answer({ contentType: "text/event-stream", extraHeaders: [header] }),
        ],
      ),
    );

    for (const response of seen.agent) {
      expect(response.headers).toEqual(expect.arrayContaining(["x-latin: caf\u00e9", "date: <now>"]));
    }
  });

  it("neither path gives up on a slow workload or a slow upstream on its own", () => {
    const server = createPipelineServer({
      ledger: new OperationLedger({ emit() {} }, "api"),
      holds: new HeldOperations(),
      upstream: new Upstream("http://127.0.0.1:9"),
      faults: [],
      identity: identityRule([]),
    });

    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([0, 0, 0]);
    expect(POOL_OPTIONS).toEqual({ headersTimeout: 0, bodyTimeout: 0 });
  });
});
