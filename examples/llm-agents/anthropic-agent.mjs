#!/usr/bin/env node
// An example agent using the official `@anthropic-ai/sdk`: one plain or one streamed message.
// The Anthropic SDK's base URL has no `/v1`; it calls `/v1/messages` itself.
import Anthropic from "@anthropic-ai/sdk";
import { clientOptions, readAgentConfig, runAgent } from "./common.mjs";

const config = readAgentConfig("anthropic-agent");
const client = new Anthropic({ ...clientOptions(config, config.baseUrl), authToken: null });
const request = {
  model: "fake-claude",
  max_tokens: 256,
  messages: [{ role: "user", content: config.prompt }],
};

await runAgent("anthropic-agent", async () => {
  if (config.mode === "complete") {
    const message = await client.messages.create(request);
    const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    console.log(`Answer: ${text}`);
    return;
  }
  const stream = await client.messages.create({ ...request, stream: true });
  let answer = "";
  let chunks = 0;
  let firstAt = 0;
  let lastAt = 0;
  for await (const event of stream) {
    if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
      answer += event.delta.text;
      chunks += 1;
      lastAt = performance.now();
      if (chunks === 1) firstAt = lastAt;
    }
  }
  console.log(`Answer: ${answer}`);
  console.log(`Streamed chunks: ${chunks}`);
  // How far apart the first and last pieces arrived: near 0 if something buffered the stream.
  console.log(`Stream spread ms: ${Math.round(lastAt - firstAt)}`);
});
