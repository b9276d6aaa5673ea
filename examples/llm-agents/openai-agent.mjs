#!/usr/bin/env node
// An example agent using the official `openai` SDK: one plain or one streamed chat completion.
// The OpenAI SDK's base URL includes the `/v1` prefix; it then calls `/chat/completions`.
// Knobs beyond the SDK's own retries: see common.mjs (whole-call attempts, a stream that must end
// with a `finish_reason`, a stream idle timeout).
import OpenAI from "openai";
import {
  clientOptions,
  IncompleteStream,
  idleWatchdog,
  readAgentConfig,
  runAgent,
  withCallAttempts,
} from "./common.mjs";

const config = readAgentConfig("openai-agent");
const client = new OpenAI({
  ...clientOptions(config, `${config.baseUrl}/v1`),
  organization: null,
  project: null,
});
const request = { model: "fake-gpt", messages: [{ role: "user", content: config.prompt }] };

/** One streamed completion, read to its end. */
async function streamOnce() {
  const watchdog = idleWatchdog(config.streamIdleMs);
  const result = { answer: "", chunks: 0, firstAt: 0, lastAt: 0 };
  let finishReason = null;
  try {
    const stream = await client.chat.completions.create(
      { ...request, stream: true },
      { signal: watchdog.signal },
    );
    for await (const chunk of stream) {
      watchdog.touch();
      const choice = chunk.choices[0];
      finishReason = choice?.finish_reason ?? finishReason;
      const piece = choice?.delta.content;
      if (piece) {
        result.answer += piece;
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
  // The SDK's iterator ends quietly when the request is aborted: the watchdog says whether it was.
  watchdog.check();
  if (config.requireComplete && finishReason === null) throw new IncompleteStream();
  return result;
}

await runAgent("openai-agent", async () => {
  if (config.mode === "complete") {
    const completion = await withCallAttempts("openai-agent", config, () =>
      client.chat.completions.create(request),
    );
    console.log(`Answer: ${completion.choices[0]?.message.content ?? ""}`);
    return;
  }
  const { answer, chunks, firstAt, lastAt } = await withCallAttempts("openai-agent", config, streamOnce);
  console.log(`Answer: ${answer}`);
  console.log(`Streamed chunks: ${chunks}`);
  // How far apart the first and last pieces arrived: near 0 if something buffered the stream.
  console.log(`Stream spread ms: ${Math.round(lastAt - firstAt)}`);
});
