#!/usr/bin/env node
// An example agent using the official `openai` SDK: one plain or one streamed chat completion.
// The OpenAI SDK's base URL includes the `/v1` prefix; it then calls `/chat/completions`.
import OpenAI from "openai";
import { clientOptions, readAgentConfig, runAgent } from "./common.mjs";

const config = readAgentConfig("openai-agent");
const client = new OpenAI({
  ...clientOptions(config, `${config.baseUrl}/v1`),
  organization: null,
  project: null,
});
const request = { model: "fake-gpt", messages: [{ role: "user", content: config.prompt }] };

await runAgent("openai-agent", async () => {
  if (config.mode === "complete") {
    const completion = await client.chat.completions.create(request);
    console.log(`Answer: ${completion.choices[0]?.message.content ?? ""}`);
    return;
  }
  const stream = await client.chat.completions.create({ ...request, stream: true });
  let answer = "";
  let chunks = 0;
  let firstAt = 0;
  let lastAt = 0;
  for await (const chunk of stream) {
    const piece = chunk.choices[0]?.delta.content;
    if (piece) {
      answer += piece;
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
