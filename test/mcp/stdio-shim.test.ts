import { describe, expect, it } from "vitest";
import { connectClient, startTestHost, textOf } from "../helpers/mcp.js";

describe("the stdio shim with the SDK's own client and server", () => {
  it("relays initialize, tools/list and tools/call, recording one session and its operations", async () => {
    const test = await startTestHost();
    const { client } = await connectClient(test);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });
    expect(textOf(result)).toBe("hello");
    await client.close();
    await test.host.close();
    const kinds = test.log.payloads.map((payload) => payload.kind);
    console.log(test.log.text());
    expect(kinds[0]).toBe("SESSION_STARTED");
    expect(kinds.at(-1)).toBe("SESSION_ENDED");
  });
});
