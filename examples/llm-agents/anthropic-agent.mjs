#!/usr/bin/env node
// An example agent using the official `@anthropic-ai/sdk`: one plain or one streamed message.
// The Anthropic SDK's base URL has no `/v1`; it calls `/v1/messages` itself.
// Knobs beyond the SDK's own retries: see common.mjs (whole-call attempts, a stream that must end
// with `message_stop`, a stream idle timeout).
import Anthropic from "@anthropic-ai/sdk";
import {
  clientOptions,
  IncompleteStream,
  idleWatchdog,
  readAgentConfig,
  runAgent,
  withCallAttempts,
} from "./common.mjs";

const config = readAgentConfig("anthropic-agent");
const client = new Anthropic({ ...clientOptions(config, config.baseUrl), authToken: null });
const request = {
  model: "fake-claude",
  max_tokens: 256,
  messages: [{ role: "user", content: config.prompt }],
};

/** One streamed message, read to its end. */
async function streamOnce() {
  const watchdog = idleWatchdog(config.streamIdleMs);
  const result = { answer: "", chunks: 0, firstAt: 0, lastAt: 0 };
  let stopped = false;
  try {
    const stream = await client.messages.create({ ...request, stream: true }, { signal: watchdog.signal });
    for await (const event of stream) {
      watchdog.touch();
      if (event.type === "message_stop") stopped = true;
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
        result.answer += event.delta.text;
        result.chunks += 1;
        result.lastAt = performance.now();
        if (result.chunks === 1) result.firstAt = result.lastAt;
      }
    }
  } catch (error) {
    watchdog.check(error);
  } finally {
    watchdog.stop();
  }
  watchdog.check();
  if (config.requireComplete && !stopped) throw new IncompleteStream();
  return result;
}

await runAgent("anthropic-agent", async () => {
  if (config.mode === "complete") {
    const message = await withCallAttempts("anthropic-agent", config, () => client.messages.create(request));
    const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    console.log(`Answer: ${text}`);
    return;
  }
  const { answer, chunks, firstAt, lastAt } = await withCallAttempts("anthropic-agent", config, streamOnce);
  console.log(`Answer: ${answer}`);
  console.log(`Streamed chunks: ${chunks}`);
  // How far apart the first and last pieces arrived: near 0 if something buffered the stream.
  console.log(`Stream spread ms: ${Math.round(lastAt - firstAt)}`);
});
