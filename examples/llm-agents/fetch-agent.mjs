#!/usr/bin/env node
// An example agent with a hand-rolled model client, the kind many agents start with: one chat
// completion with `fetch` (OpenAI Chat Completions shape), retried when it fails with a status of
// 408, 409, 429 or 5xx, or without an answer. How it waits before each retry is its knob:
//   RETRY_AFTER=honour (default)  wait what the failed response asked for: `retry-after-ms`, else
//                                 `Retry-After` (seconds or an HTTP date); RETRY_DELAY_MS when it
//                                 asked for nothing
//   RETRY_AFTER=ignore            always wait RETRY_DELAY_MS (the bug the retry_after check catches)
//   RETRY_DELAY_MS (default 500)  RETRY_ATTEMPTS (default 4, 1 = no retry)
// Reads LLM_API_URL (else AGENTCHAOS_PROXY_URL), the model API's base URL without `/v1`.
// Exit codes: 0 answered, 1 gave up, 2 bad configuration. Prints fixed words and numbers only.

function usage(message) {
  process.stderr.write(`fetch-agent: ${message}\n`);
  process.exit(2);
}

function knob(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) usage(`${name} must be a non-negative integer`);
  return Number(raw);
}

const base = (process.env.LLM_API_URL || process.env.AGENTCHAOS_PROXY_URL || "").replace(/\/+$/, "");
if (base === "") usage("LLM_API_URL or AGENTCHAOS_PROXY_URL is required");
const policy = process.env.RETRY_AFTER || "honour";
if (policy !== "honour" && policy !== "ignore") usage("RETRY_AFTER must be honour or ignore");
const attempts = Math.max(1, knob("RETRY_ATTEMPTS", 4));
const delayMs = knob("RETRY_DELAY_MS", 500);

const RETRYABLE = (status) => status === 408 || status === 409 || status === 429 || status >= 500;

/** The wait a response asked for, in ms, or null: `retry-after-ms`, then `Retry-After`. */
function askedWaitMs(headers) {
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after")?.trim();
  if (value === undefined) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

class Retryable extends Error {
  constructor(waitMs) {
    super("retryable");
    this.waitMs = waitMs;
  }
}

async function complete() {
  let response;
  try {
    response = await fetch(`${base}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-agentchaos-dummy" },
      body: JSON.stringify({ model: "fake-gpt", messages: [{ role: "user", content: "Say hello" }] }),
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    throw new Retryable(null);
  }
  if (!response.ok) {
    await response.body?.cancel();
    if (RETRYABLE(response.status)) throw new Retryable(askedWaitMs(response.headers));
    throw new Error(`status ${response.status}`);
  }
  return (await response.json()).choices[0].message.content;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

for (let attempt = 1; ; attempt += 1) {
  try {
    const answer = await complete();
    console.log(`Answered on attempt ${attempt} (${answer.length} characters)`);
    break;
  } catch (error) {
    if (!(error instanceof Retryable) || attempt >= attempts) {
      console.log(`Gave up after ${attempt} attempt(s)`);
      process.exit(1);
    }
    const waitMs = policy === "honour" && error.waitMs !== null ? error.waitMs : delayMs;
    console.log(`Attempt ${attempt} failed; retrying in ${waitMs} ms`);
    await sleep(waitMs);
  }
}
