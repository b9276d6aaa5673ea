#!/usr/bin/env node
// An example agent on LangChain.js (`@langchain/openai`): one chat model call. LangChain's own
// retry logic retries rate limits and server errors but fails fast on a client error such as 400
// (a malformed request cannot get better by sending it again); this agent then stops cleanly with
// exit code 3 ("request rejected"), which is what its scenarios expect.
// Knob: LANGCHAIN_RETRY=yes wraps the model in `.withRetry({ stopAfterAttempt: 2 })`, a retry
// bolted on that retries every error, the 400 included.
// Reads LLM_API_URL (else AGENTCHAOS_PROXY_URL), the model API's base URL without `/v1`.
// Exit codes: 0 answered, 1 other failure, 2 bad configuration, 3 request rejected (4xx).
import { ChatOpenAI } from "@langchain/openai";

const EXIT_REJECTED = 3;

const base = (process.env.LLM_API_URL || process.env.AGENTCHAOS_PROXY_URL || "").replace(/\/+$/, "");
if (base === "") {
  process.stderr.write("langchain-agent: LLM_API_URL or AGENTCHAOS_PROXY_URL is required\n");
  process.exit(2);
}

const chat = new ChatOpenAI({
  model: "fake-gpt",
  apiKey: "sk-agentchaos-dummy",
  configuration: { baseURL: `${base}/v1` },
});
const model = process.env.LANGCHAIN_RETRY === "yes" ? chat.withRetry({ stopAfterAttempt: 2 }) : chat;

/** The HTTP status of a failed model call, as LangChain reports it, or null. */
function statusOf(error) {
  const status = error?.status ?? error?.response?.status ?? error?.lc_error_code;
  return typeof status === "number" ? status : null;
}

try {
  const message = await model.invoke("Summarise the customer's last ticket");
  console.log(`Answer: ${message.content.length} characters`);
} catch (error) {
  const status = statusOf(error);
  if (status !== null && status >= 400 && status < 500) {
    console.log(`The model rejected the request (status ${status}); not retrying`);
    process.exitCode = EXIT_REJECTED;
  } else {
    console.log(`The model call failed (${error?.constructor?.name ?? "Error"})`);
    process.exitCode = 1;
  }
}
