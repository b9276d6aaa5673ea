#!/usr/bin/env node
// A small support agent for the schema-2 examples: it asks the model what to do, calls the
// customer API (its tool), then asks the model again with the tool's answer.
// Reads AGENTCHAOS_LLM_URL (the model, OpenAI Chat Completions shape) and AGENTCHAOS_CRM_URL.
// Knobs: SUPPORT_TOOL_ATTEMPTS and SUPPORT_MODEL_ATTEMPTS (default 3 each: 1 = no retry),
// SUPPORT_RETRY_DELAY_MS (default 150), SUPPORT_TIMEOUT_MS (default 2000 per attempt),
// SUPPORT_LISTEN=yes (first open the customer API's update feed, `GET /events`, an optional
// listening stream: without it the agent works on; with it, it closes the feed when done).
// Exit codes: 0 answered, 1 gave up, 2 bad configuration. Prints fixed words, never payloads.
import { openStream, request } from "./http-client.mjs";

function usage(message) {
  process.stderr.write(`support-agent: ${message}\n`);
  process.exit(2);
}

function knob(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) usage(`${name} must be a non-negative integer`);
  return Number(raw);
}

function baseUrl(name) {
  const value = process.env[name];
  if (value === undefined || value === "") usage(`${name} is required`);
  return value.replace(/\/+$/, "");
}

const config = {
  llm: baseUrl("AGENTCHAOS_LLM_URL"),
  crm: baseUrl("AGENTCHAOS_CRM_URL"),
  toolAttempts: Math.max(1, knob("SUPPORT_TOOL_ATTEMPTS", 3)),
  modelAttempts: Math.max(1, knob("SUPPORT_MODEL_ATTEMPTS", 3)),
  retryDelayMs: knob("SUPPORT_RETRY_DELAY_MS", 150),
  timeoutMs: knob("SUPPORT_TIMEOUT_MS", 2000),
  listen: process.env.SUPPORT_LISTEN === "yes",
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class AttemptFailed extends Error {}

/** One HTTP attempt that must answer 2xx with JSON; anything else is an AttemptFailed. */
async function attempt(url, init) {
  let response;
  try {
    response = await request(url, { ...init, timeoutMs: config.timeoutMs });
  } catch {
    throw new AttemptFailed("transport error");
  }
  if (!response.ok) throw new AttemptFailed(`status ${response.status}`);
  try {
    return response.json();
  } catch {
    throw new AttemptFailed("invalid JSON");
  }
}

async function withRetries(what, attempts, call) {
  for (let n = 1; ; n++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof AttemptFailed) || n >= attempts) {
        process.stdout.write(`${what}: giving up after ${n} attempt(s) (${error.message})\n`);
        process.exit(1);
      }
      process.stdout.write(`${what}: attempt ${n} failed (${error.message}), retrying\n`);
      await sleep(config.retryDelayMs);
    }
  }
}

function askModel(content) {
  return withRetries("model", config.modelAttempts, async () => {
    const body = await attempt(`${config.llm}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content }] }),
    });
    const text = body?.choices?.[0]?.message?.content;
    if (typeof text !== "string") throw new AttemptFailed("no answer");
    return text;
  });
}

/**
 * Opens the optional update feed and reads it in the background until `stop` is aborted. Resolves
 * once the feed answered (or failed): the agent does not need it, and does not retry it.
 */
async function openFeed(stop) {
  let response;
  try {
    response = await openStream(`${config.crm}/events`, stop);
  } catch {
    process.stdout.write("events: feed unavailable, working without updates\n");
    return;
  }
  if (!response.ok) {
    process.stdout.write(`events: feed unavailable (status ${response.status}), working without updates\n`);
    return;
  }
  process.stdout.write("events: listening\n");
  void (async () => {
    try {
      for await (const _chunk of response.body) {
        // The updates only keep the agent informed; this example does not use them.
      }
    } catch {
      // Closed by the agent at the end, or lost: either way the work goes on.
    }
  })();
}

const feed = new AbortController();
if (config.listen) await openFeed(feed.signal);
await askModel("Which customer is asking?");
process.stdout.write("model: planned a customer lookup\n");
const customer = await withRetries("crm", config.toolAttempts, () => attempt(`${config.crm}/customer/42`));
process.stdout.write(`crm: customer tier ${typeof customer?.tier === "string" ? "found" : "missing"}\n`);
await askModel("Write the reply for the customer.");
process.stdout.write("model: reply written\n");
// Stop listening: the feed is closed by the agent, which is how a listening stream ends.
feed.abort();
