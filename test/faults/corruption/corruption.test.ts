import { describe, expect, it } from "vitest";
import type { CanarySeenPayload } from "../../../src/events/addition-types.js";
import {
  canaryLiterals,
  canaryValues,
  withThousandsSeparators,
} from "../../../src/faults/corruption/canary.js";
import { CanaryBook } from "../../../src/faults/corruption/canary-book.js";
import { corruptJson } from "../../../src/faults/corruption/corrupt-json.js";
import { EventStreamRewriter } from "../../../src/faults/corruption/event-stream.js";
import { pointerTokens } from "../../../src/faults/corruption/json-pointer.js";
import type { CorruptionFault } from "../../../src/scenario/types.js";

const values = { text: "ac-canary-0a1b2c3d", integer: 604217 };

describe("canary values", () => {
  it("derive a string ac-canary-<8 lowercase hex> and an integer from 100000 to 999999 from run id and fault id", () => {
    const one = canaryValues("20261201T000000Z-aaaaaaaa", "wrong-price");
    expect(one.text).toMatch(/^ac-canary-[0-9a-f]{8}$/);
    expect(one.integer).toBeGreaterThanOrEqual(100000);
    expect(one.integer).toBeLessThanOrEqual(999999);
    expect(canaryValues("20261201T000000Z-aaaaaaaa", "wrong-price")).toEqual(one);
    expect(canaryValues("20261201T000000Z-bbbbbbbb", "wrong-price")).not.toEqual(one);
    expect(canaryValues("20261201T000000Z-aaaaaaaa", "wrong-note")).not.toEqual(one);
  });

  it("are looked for as written and, for an integer, with thousands separators", () => {
    expect(withThousandsSeparators(604217)).toBe("604,217");
    expect(canaryLiterals("number", values)).toEqual(["604217", "604,217"]);
    expect(canaryLiterals("string", values)).toEqual(["ac-canary-0a1b2c3d"]);
    expect(canaryLiterals("boolean", values)).toEqual([]);
  });
});

describe("corruptJson without a pointer: the first leaf value", () => {
  it("replaces the first string, number or boolean in document order and names its pointer", () => {
    expect(corruptJson('{"b":1,"1":"x"}', null, values)).toEqual({
      kind: "corrupted",
      type: "number",
      text: '{"b":604217,"1":"x"}',
      pointer: "/b",
    });
    const nested = '{ "a" : null, "e":{}, "l":[], "m_n":[ null, [ {}, { "ok" : true } ] ], "z":"s" }';
    expect(corruptJson(nested, null, values)).toMatchObject({
      text: nested.replace("true", "false"),
      type: "boolean",
      pointer: "/m_n/1/1/ok",
    });
    expect(corruptJson('"whole"', null, values)).toMatchObject({ pointer: "", type: "string" });
    expect(corruptJson('[[], {"$k.y-1": "}]", "w": 2}]', null, values)).toMatchObject({
      pointer: "/1/$k.y-1",
      text: '[[], {"$k.y-1": "ac-canary-0a1b2c3d", "w": 2}]',
    });
  });

  it("passes over members whose key is data, not a field name, so the recorded pointer holds none", () => {
    const keyedByData =
      '{"users":{"alice@example.com":{"age":41},"2024-01-01":7,"k\\"y":"}]","m/n~":1,"profile":{"a":1}},"count":3}';
    expect(corruptJson(keyedByData, null, values)).toMatchObject({
      type: "number",
      pointer: "/users/profile/a",
    });
    const onlyData = '{"by_id":{"8c1f0a2e-42d1-4a55-9d8e-1f6a1c2b3d4e":"x","a b":2},"total":5}';
    expect(corruptJson(onlyData, null, values)).toMatchObject({ type: "number", pointer: "/total" });
    expect(corruptJson('{"x@y":1}', null, values)).toEqual({ kind: "pointer_not_found" });
  });

  it("reports pointer_not_found for JSON without a leaf, not_json for other text", () => {
    for (const text of ["null", "{}", '{"a":[null,{}],"b":{"c":null}}', "[]"])
      expect(corruptJson(text, null, values)).toEqual({ kind: "pointer_not_found" });
    expect(corruptJson("<p>5</p>", null, values)).toEqual({ kind: "not_json" });
  });

  it("walks a deeply nested document without exhausting the stack", () => {
    const deep = `${"[".repeat(200000)}7${"]".repeat(200000)}`;
    expect(corruptJson(deep, null, values)).toMatchObject({ type: "number", pointer: "/0".repeat(200000) });
  });
});

describe("corruptJson", () => {
  const tokens = (pointer: string) => pointerTokens(pointer);

  it("replaces only the value's characters, keeping every other byte as written", () => {
    const text = '{ "id" : "sku-1",\n  "price":19.990, "tags":["a","b"], "stock": 4 }';
    expect(corruptJson(text, tokens("/price"), values)).toEqual({
      kind: "corrupted",
      type: "number",
      text: '{ "id" : "sku-1",\n  "price":604217, "tags":["a","b"], "stock": 4 }',
      pointer: null,
    });
    expect(corruptJson(text, tokens("/tags/1"), values)).toMatchObject({
      text: '{ "id" : "sku-1",\n  "price":19.990, "tags":["a","ac-canary-0a1b2c3d"], "stock": 4 }',
      type: "string",
    });
  });

  it("flips a boolean, follows escaped keys and nested arrays, and skips strings with brackets", () => {
    const text = '{"x":"}]\\"{","a/b":{"m~n":[0,{"ok":true}]}}';
    expect(corruptJson(text, tokens("/a~1b/m~0n/1/ok"), values)).toMatchObject({
      text: '{"x":"}]\\"{","a/b":{"m~n":[0,{"ok":false}]}}',
      type: "boolean",
    });
  });

  it("reports not_json for a body that is not JSON, and pointer_not_found for a missing or non-scalar value", () => {
    expect(corruptJson("<html>", tokens("/price"), values)).toEqual({ kind: "not_json" });
    expect(corruptJson('{"price":1}', tokens("/cost"), values)).toEqual({ kind: "pointer_not_found" });
    expect(corruptJson('{"items":[1]}', tokens("/items/1"), values)).toEqual({ kind: "pointer_not_found" });
    expect(corruptJson('{"items":[1]}', tokens("/items/01"), values)).toEqual({ kind: "pointer_not_found" });
    expect(corruptJson('{"item":{"a":1}}', tokens("/item"), values)).toEqual({ kind: "pointer_not_found" });
    expect(corruptJson('{"item":null}', tokens("/item"), values)).toEqual({ kind: "pointer_not_found" });
  });
});

describe("EventStreamRewriter", () => {
  const rewriteFirst = () => {
    let done = false;
    return new EventStreamRewriter((data) => {
      if (done) return null;
      const outcome = corruptJson(data, ["choices", "0", "text"], values);
      if (outcome.kind !== "corrupted") return null;
      done = true;
      return outcome.text;
    });
  };

  it("rewrites the first event whose JSON data resolves, keeps the framing, and passes the rest byte for byte", () => {
    const stream = [
      ": comment\r\n\r\n",
      'event: ping\r\ndata: {"other":1}\r\n\r\n',
      'id: 7\r\ndata: {"choices":[{"text":"hel',
      'lo"}]}\r\n\r\n',
      'data: {"choices":[{"text":"again"}]}\r\n\r\n',
      "data: [DONE]\r\n\r\n",
    ];
    const rewriter = rewriteFirst();
    let out = "";
    for (const piece of stream) out += rewriter.push(Buffer.from(piece));
    out += rewriter.end();
    expect(out).toBe(
      stream
        .join("")
        .replace('{"choices":[{"text":"hello"}]}', '{"choices":[{"text":"ac-canary-0a1b2c3d"}]}'),
    );
  });

  it("holds a CR at the end of a chunk until it knows whether an LF follows", () => {
    const rewriter = rewriteFirst();
    let out = rewriter.push(Buffer.from('data: {"choices":[{"text":"x"}]}\r'));
    out += rewriter.push(Buffer.from("\n\r\n"));
    out += rewriter.end();
    expect(out).toBe('data: {"choices":[{"text":"ac-canary-0a1b2c3d"}]}\r\n\r\n');
  });
});

describe("CanaryBook", () => {
  const fault = (sinks: string[]): CorruptionFault => ({
    id: "wrong-price",
    type: "http_corrupt",
    dependency: "shop",
    target: { kind: "http", method: "GET", path: "/items/*" },
    trigger: { kind: "occurrence_schedule", occurrences: [1] } as unknown as CorruptionFault["trigger"],
    expect: "handle",
    pointer: "/price",
    sinks,
  });

  it("records CANARY_SEEN once per fault and sink, only after the canary was armed, for bodies, targets and separated integers", () => {
    const seen: CanarySeenPayload[] = [];
    const book = new CanaryBook("run-1", [fault(["stdout", "shop", "crm"])], { emit: (p) => seen.push(p) });
    const { integer } = book.values("wrong-price");
    book.scanStdout(`costs ${integer}`);
    expect(seen).toEqual([]);
    book.arm("wrong-price", "number");
    book.scanRequest("shop", "op-1", "/orders", Buffer.from('{"quoted":1}'));
    book.scanRequest("shop", "op-2", "/orders", Buffer.from(`{"quoted":${integer}}`));
    book.scanRequest("shop", "op-3", "/orders", Buffer.from(`{"quoted":${integer}}`));
    book.scanRequest("crm", "op-4", `/notes?total=${integer}`, null);
    book.scanRequest("llm", "op-5", "/", Buffer.from(String(integer)));
    book.scanStdout(`The lamp costs ${withThousandsSeparators(integer)} dollars`);
    book.scanStdout(`again ${integer}`);
    expect(seen).toEqual([
      { kind: "CANARY_SEEN", fault_id: "wrong-price", sink: "shop", operation_id: "op-2" },
      { kind: "CANARY_SEEN", fault_id: "wrong-price", sink: "crm", operation_id: "op-4" },
      { kind: "CANARY_SEEN", fault_id: "wrong-price", sink: "stdout", operation_id: null },
    ]);
    expect(book.mask(`x ${integer} y`)).toBe("x [canary wrong-price] y");
  });
});
