import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mcpFingerprint, mcpIdentity, paramsHash, requestFacts, targetName } from "../../src/mcp/identity.js";
import { cancelledIdKey, classifyMessage, findResponse } from "../../src/mcp/json-rpc.js";
import { rawMember } from "../../src/mcp/raw-member.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("JSON-RPC messages", () => {
  it("keeps a request's id exactly as written, whatever JSON.parse would make of it", () => {
    for (const id of ["7", "1.0", "12345678901234567890", '"abc"', '"\\u0041\\n"', "-0", "1e3"]) {
      const message = classifyMessage(`{ "jsonrpc":"2.0", "id" : ${id} ,"method":"tools/list"}`);
      expect(message).toMatchObject({ kind: "request", rawId: id, method: "tools/list" });
    }
  });

  it("finds the last top-level id, never one nested in params", () => {
    const text = '{"params":{"id":99,"x":[{"id":1}]},"id":"outer","jsonrpc":"2.0","method":"m"}';
    expect(rawMember(text, "id")).toBe('"outer"');
    expect(rawMember('{"id":1,"id":2}', "id")).toBe("2");
    expect(rawMember('{"a":"}\\"{","id":[1,{"b":"]"}]}', "id")).toBe('[1,{"b":"]"}]');
    expect(rawMember('{"a":1}', "id")).toBeNull();
  });

  it("finds the id after strings full of quotes and backslashes", () => {
    const text = fc.string({ unit: fc.constantFrom("a", '"', "\\", "}", "{", ",") });
    fc.assert(
      fc.property(
        fc.dictionary(text, fc.oneof(text, fc.jsonValue())),
        fc.oneof(text, fc.integer()),
        (before, id) => {
          const { id: _dropped, ...rest } = before;
          expect(rawMember(JSON.stringify({ ...rest, id }), "id")).toBe(JSON.stringify(id));
        },
      ),
    );
  });

  it("classifies notifications, responses, batches and malformed lines", () => {
    expect(classifyMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}').kind).toBe(
      "notification",
    );
    expect(classifyMessage('{"jsonrpc":"2.0","id":3,"result":{}}')).toEqual({
      kind: "response",
      idKey: "n:3",
      outcome: { kind: "result" },
    });
    expect(classifyMessage('{"jsonrpc":"2.0","id":"3","result":{"isError":true}}')).toEqual({
      kind: "response",
      idKey: "s:3",
      outcome: { kind: "tool_error" },
    });
    expect(classifyMessage('{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"x"}}')).toMatchObject({
      outcome: { kind: "rpc_error", code: -32601 },
    });
    expect(classifyMessage('[{"jsonrpc":"2.0","method":"a"}]').kind).toBe("other");
    expect(classifyMessage('{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}').kind).toBe("other");
    for (const bad of [
      "",
      "not json",
      "{",
      "42",
      '{"id":1,"method":"x"}',
      '{"jsonrpc":"2.0","id":{},"method":"x"}',
      "[]",
    ]) {
      expect(classifyMessage(bad).kind).toBe("malformed");
    }
  });

  it("reads the id a cancellation names", () => {
    const cancel = classifyMessage(
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}',
    );
    expect(cancelledIdKey(cancel)).toBe("n:5");
    expect(cancelledIdKey(classifyMessage('{"jsonrpc":"2.0","method":"notifications/progress"}'))).toBeNull();
  });

  it("finds the response to one id in a single response or a batch", () => {
    expect(findResponse('{"jsonrpc":"2.0","id":1,"result":{}}', "n:1")).toEqual({ kind: "result" });
    expect(
      findResponse(
        '[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":1,"error":{"code":5}}]',
        "n:1",
      ),
    ).toEqual({
      kind: "rpc_error",
      code: 5,
    });
    expect(findResponse('{"jsonrpc":"2.0","id":"1","result":{}}', "n:1")).toBeNull();
    expect(findResponse("nope", "n:1")).toBeNull();
  });
});

describe("MCP operation identity", () => {
  it("names tools and prompts by name, resources by uri, everything else by nothing", () => {
    expect(targetName("tools/call", { name: "search", arguments: {} })).toBe("search");
    expect(targetName("prompts/get", { name: "summary" })).toBe("summary");
    expect(targetName("resources/read", { uri: "notes://1" })).toBe("notes://1");
    expect(targetName("tools/list", { name: "x" })).toBe("");
    expect(targetName("tools/call", { name: 5 })).toBe("");
  });

  it("hashes the canonical JSON of params without _meta; absent and null params hash as null", () => {
    const params = {
      name: "search",
      arguments: { b: [1, "x"], a: { d: null, c: true } },
      _meta: { progressToken: 9 },
    };
    expect(paramsHash(params)).toBe(
      sha256('{"arguments":{"a":{"c":true,"d":null},"b":[1,"x"]},"name":"search"}'),
    );
    expect(paramsHash(undefined)).toBe(sha256("null"));
    expect(paramsHash(null)).toBe(sha256("null"));
    expect(paramsHash([1, { b: 2, a: 1 }])).toBe(sha256('[1,{"a":1,"b":2}]'));
  });

  it("fingerprints mcp, method, target name and params hash; ids and _meta never take part", () => {
    const one = requestFacts("tools/call", {
      name: "search",
      arguments: { q: "a" },
      _meta: { progressToken: 1 },
    });
    const two = requestFacts("tools/call", { arguments: { q: "a" }, name: "search" });
    expect(mcpFingerprint(one)).toBe(mcpFingerprint(two));
    expect(mcpFingerprint(one)).toBe(sha256(`mcp\0tools/call\0search\0${one.bodyHash}`));
    expect(mcpIdentity(one, 2)).toMatchObject({
      protocol: "mcp",
      session: 2,
      queryHash: null,
      path: "search",
    });
  });
});
