import { describe, expect, it } from "vitest";
import { type Operation, OperationLedger } from "../../src/events/operation.js";
import type { EventPayload } from "../../src/events/types.js";
import { Cancellations } from "../../src/mcp/cancellations.js";
import { mcpCompletion } from "../../src/mcp/http/mcp-completion.js";
import { idKeyOf } from "../../src/mcp/json-rpc.js";
import { type CompletionRule, HTTP_COMPLETION } from "../../src/proxy/completion-rule.js";

const ANSWER = Buffer.from('{"jsonrpc":"2.0","id":7,"result":{"content":[]}}');
const TOOL_ERROR = Buffer.from('{"jsonrpc":"2.0","id":7,"result":{"isError":true,"content":[]}}');
const OTHER_ID = Buffer.from('{"jsonrpc":"2.0","id":8,"result":{}}');
const RETRY = { "retry-after": "3" };

type Way = (rule: CompletionRule, operation: Operation) => void;

/** The way an exchange ends, as each relay reports it. */
const WAYS: Record<string, Way> = {
  "answer 200": (rule, op) => rule.ended(op, 200, {}, ANSWER, null),
  "answer 200 carrying a tool error": (rule, op) => rule.ended(op, 200, {}, TOOL_ERROR, null),
  "answer 200 without the request's response": (rule, op) => rule.ended(op, 200, {}, OTHER_ID, null),
  "answer 503 asking for 3 s": (rule, op) => rule.ended(op, 503, RETRY, Buffer.alloc(0), null),
  "stream ended after 2 events": (rule, op) => rule.ended(op, 200, {}, null, 2),
  "agent left before its answer": (rule, op) => rule.clientLeft(op),
  "agent left a stream after 2 events": (rule, op) => rule.streamLeft(op, 200, {}, 2, false),
  "agent left a stream a fault acts on": (rule, op) => rule.streamLeft(op, 200, {}, 2, true),
  "upstream broke a stream after 2 events": (rule, op) => rule.streamBroke(op, 200, 2),
  "the proxy's 502 instead": (rule, op) => rule.replaced(op),
};

function terminalOf(rule: (ledger: OperationLedger) => CompletionRule, way: Way): Record<string, unknown> {
  const payloads: EventPayload[] = [];
  const ledger = new OperationLedger({ emit: (payload) => payloads.push(payload as EventPayload) }, "dep");
  const operation = ledger.begin(
    { method: "POST", path: "/mcp", queryHash: null, bodyHash: "b", fingerprint: "f", protocol: "http" },
    0,
  );
  way(rule(ledger), operation);
  // Recorded once: a second report of the same end adds nothing.
  way(rule(ledger), operation);
  expect(payloads).toHaveLength(1);
  const { kind, status_code, ...rest } = payloads[0] as unknown as Record<string, unknown>;
  const shown: Record<string, unknown> = { kind, status_code };
  for (const key of [
    "failure_kind",
    "retry_after_ms",
    "relayed_events",
    "closed_by_client",
    "rpc_error_code",
  ]) {
    if (rest[key] !== undefined && rest[key] !== null && rest[key] !== false) shown[key] = rest[key];
  }
  return shown;
}

const ok = (status: number | null, extra: Record<string, unknown> = {}) => ({
  kind: "OPERATION_SUCCEEDED",
  status_code: status,
  ...extra,
});
const failed = (failure_kind: string, status: number | null, extra: Record<string, unknown> = {}) => ({
  kind: "OPERATION_FAILED",
  status_code: status,
  failure_kind,
  ...extra,
});

describe("the terminal-event table of each protocol", () => {
  const http = () => HTTP_COMPLETION;
  const mcp = (ledger: OperationLedger) =>
    mcpCompletion(idKeyOf(7) as string, new Cancellations(ledger, false));
  const table: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["answer 200", ok(200), ok(null)],
    ["answer 200 carrying a tool error", ok(200), failed("tool_error", null)],
    ["answer 200 without the request's response", ok(200), failed("connection_closed", null)],
    [
      "answer 503 asking for 3 s",
      failed("upstream_http_error", 503, { retry_after_ms: 3000 }),
      failed("upstream_http_error", 503, { retry_after_ms: 3000 }),
    ],
    [
      "stream ended after 2 events",
      ok(200, { relayed_events: 2 }),
      failed("connection_closed", null, { relayed_events: 2 }),
    ],
    ["agent left before its answer", failed("client_disconnected", null), failed("connection_closed", null)],
    [
      "agent left a stream after 2 events",
      ok(200, { relayed_events: 2, closed_by_client: true }),
      failed("connection_closed", null, { relayed_events: 2 }),
    ],
    [
      "agent left a stream a fault acts on",
      failed("client_disconnected", 200, { relayed_events: 2 }),
      failed("connection_closed", null, { relayed_events: 2 }),
    ],
    [
      "upstream broke a stream after 2 events",
      failed("upstream_stream_interrupted", 200, { relayed_events: 2 }),
      failed("connection_closed", null, { relayed_events: 2 }),
    ],
    ["the proxy's 502 instead", failed("proxy_error", 502), failed("proxy_error", 502)],
  ];

  for (const [way, httpTerminal, mcpTerminal] of table) {
    it(`${way}: HTTP and MCP`, () => {
      expect(terminalOf(http, WAYS[way] as Way)).toEqual(httpTerminal);
      expect(terminalOf(mcp, WAYS[way] as Way)).toEqual(mcpTerminal);
    });
  }

  it("only MCP withholds an answer: the one to a request the agent cancelled", () => {
    const ledger = new OperationLedger({ emit: () => undefined }, "dep");
    const operation = ledger.begin(
      {
        method: "tools/call",
        path: "echo",
        queryHash: null,
        bodyHash: "b",
        fingerprint: "f",
        protocol: "mcp",
      },
      0,
    );
    const cancellations = new Cancellations(ledger, false);
    const rule = mcpCompletion(idKeyOf(7) as string, cancellations);
    expect(rule.withheld(operation)).toBe(false);
    cancellations.cancel(operation, null);
    expect(rule.withheld(operation)).toBe(true);
    expect(HTTP_COMPLETION.withheld(operation)).toBe(false);
  });
});
