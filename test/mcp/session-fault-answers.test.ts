import { describe, expect, it } from "vitest";
import { malformedMessage } from "../../src/mcp/faults/malformed.js";
import { paddedAnswer } from "../../src/mcp/faults/padded-answer.js";
import { removedToolAnswer, SessionTools } from "../../src/mcp/faults/session-tools.js";

describe("paddedAnswer", () => {
  it("pads the first text content so the message is exactly size_bytes, suffix apart", () => {
    const text =
      '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"image","data":"AA=="},{"type":"text","text":"héllo"}]}}';
    const padded = paddedAnswer(text, 1000, "\n") as Buffer;
    expect(padded.length).toBe(1001);
    expect(padded.at(-1)).toBe(0x0a);
    const parsed = JSON.parse(padded.toString("utf8"));
    expect(parsed.result.content[0]).toEqual({ type: "image", data: "AA==" });
    expect(parsed.result.content[1].text).toMatch(/^héllox+$/);
  });

  it("adds a text content to a result without one, leaves an error answer alone, never shrinks", () => {
    const bare = JSON.parse((paddedAnswer('{"jsonrpc":"2.0","id":1,"result":{}}', 200) as Buffer).toString());
    expect(bare.result.content).toEqual([
      { type: "text", text: "x".repeat(bare.result.content[0].text.length) },
    ]);
    expect(paddedAnswer('{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}', 200)).toBeNull();
    expect(paddedAnswer("not json", 200)).toBeNull();
    const long = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${"a".repeat(500)}"}]}}`;
    expect((paddedAnswer(long, 10) as Buffer).toString()).toBe(long);
  });
});

describe("malformedMessage", () => {
  it("writes each shape around the request's own id", () => {
    expect(() => JSON.parse(malformedMessage("not_json", "5"))).toThrow();
    expect(JSON.parse(malformedMessage("wrong_id", "5")).id).not.toBe(5);
    expect(malformedMessage("missing_result", '"a"')).toBe('{"jsonrpc":"2.0","id":"a"}');
  });
});

describe("SessionTools", () => {
  it("is inactive until a change; then removes tools and adds required properties to the targeted one", () => {
    const tools = new SessionTools();
    const list = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      result: {
        tools: [
          {
            name: "a",
            inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
          },
          { name: "b", inputSchema: { type: "object" } },
          { name: "c" },
        ],
      },
    });
    expect(tools.rewrites("tools/list")).toBe(false);
    tools.apply({ remove: ["b"], require: "why", tool: "a" });
    tools.apply({ remove: [], require: "who", tool: "c" });
    expect(tools.removes("tools/call", "b")).toBe(true);
    expect(tools.removes("tools/call", "a")).toBe(false);
    expect(tools.removes("resources/read", "b")).toBe(false);
    const rewritten = JSON.parse(tools.rewriteList(list) as string);
    expect(rewritten.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["a", "c"]);
    expect(rewritten.result.tools[0].inputSchema.required).toEqual(["q", "why"]);
    expect(rewritten.result.tools[0].inputSchema.properties.why.type).toBe("string");
    expect(rewritten.result.tools[1].inputSchema).toMatchObject({ type: "object", required: ["who"] });
    expect(JSON.parse(removedToolAnswer("7", "b"))).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "Unknown tool: b" },
    });
  });
});
