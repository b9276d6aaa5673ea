#!/usr/bin/env node
// The agent of the explore example. It answers a customer about an order in five calls:
//   1. asks the model what the customer wants          (llm POST /v1/chat/completions #1)
//   2. looks the order up                              (shop GET /orders/7 #1)
//   3. asks the model to draft the reply               (llm POST /v1/chat/completions #2)
//   4. looks the order up again, in case it changed    (shop GET /orders/7 #2)
//   5. asks the model for the final reply              (llm POST /v1/chat/completions #3)
// Every call is retried (3 attempts, 100 ms apart, or as long as a Retry-After asks) -- except
// the re-check of step 4, which goes through a "quick" path without a retry: the planted
// weakness that `agentchaos explore` finds. ORDER_AGENT_FIXED=1 retries it too.
// Reads AGENTCHAOS_LLM_URL and AGENTCHAOS_SHOP_URL. Exit codes: 0 answered, 1 gave up.
// Prints fixed words, never payloads.

import { request } from "../http-client.mjs";

const llm = process.env.AGENTCHAOS_LLM_URL;
const shop = process.env.AGENTCHAOS_SHOP_URL;
if (!llm || !shop) {
  process.stderr.write("order-agent: AGENTCHAOS_LLM_URL and AGENTCHAOS_SHOP_URL are required\n");
  process.exit(2);
}
const ATTEMPTS = 3;
const RETRY_DELAY_MS = 100;
const TIMEOUT_MS = 3000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class CallFailed extends Error {
  constructor(message, waitMs = 0) {
    super(message);
    this.waitMs = waitMs;
  }
}

/** The wait a response asks for: `retry-after-ms`, else `Retry-After` in seconds, else 0. */
function requestedWait(response) {
  const ms = Number(response.header("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number(response.header("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/** One HTTP call that must answer 2xx with JSON. */
async function call(url, init = {}) {
  let response;
  try {
    response = await request(url, { ...init, timeoutMs: TIMEOUT_MS });
  } catch {
    throw new CallFailed("transport error");
  }
  if (!response.ok) throw new CallFailed(`status ${response.status}`, requestedWait(response));
  try {
    return response.json();
  } catch {
    throw new CallFailed("invalid JSON");
  }
}

async function withRetries(what, attempt) {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof CallFailed) || n >= ATTEMPTS) giveUp(what, error);
      process.stdout.write(`${what}: attempt ${n} failed (${error.message}), retrying\n`);
      await sleep(Math.max(RETRY_DELAY_MS, error.waitMs));
    }
  }
}

function giveUp(what, error) {
  process.stdout.write(`${what}: giving up (${error.message})\n`);
  process.exit(1);
}

function askModel(content) {
  return withRetries("model", async () => {
    const body = await call(`${llm}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content }] }),
    });
    if (typeof body?.choices?.[0]?.message?.content !== "string") throw new CallFailed("no answer");
  });
}

const lookUpOrder = () => withRetries("shop", () => call(`${shop}/orders/7`));

/** The planted weakness: the re-check takes one attempt, unless ORDER_AGENT_FIXED=1. */
async function recheckOrder() {
  if (process.env.ORDER_AGENT_FIXED === "1") return lookUpOrder();
  try {
    return await call(`${shop}/orders/7`);
  } catch (error) {
    giveUp("shop re-check", error);
  }
}

await askModel("Which order is the customer asking about?");
const order = await lookUpOrder();
process.stdout.write(`shop: order ${typeof order?.status === "string" ? "found" : "missing"}\n`);
await askModel("Draft a reply about the order status.");
const latest = await recheckOrder();
process.stdout.write(`shop: order ${latest?.status === order?.status ? "unchanged" : "changed"}\n`);
await askModel("Write the final reply.");
process.stdout.write("model: reply written\n");
