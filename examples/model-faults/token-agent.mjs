#!/usr/bin/env node
// An agent whose credential can expire (http_auth_expired): on a 401 it fetches a fresh token
// (here: a fixed second key) and asks again, once. MODEL_SDK picks the client.
import { ask, readSetup } from "./clients.mjs";

const setup = readSetup("token-agent");
const QUESTION = "Say hello to Agent Chaos";

/** Whether a client error is a 401 (openai / Anthropic: `status`; AI SDK: `statusCode`). */
function unauthorized(error) {
  return error?.status === 401 || error?.statusCode === 401;
}

let token = "sk-agentchaos-expiring";
try {
  let answer;
  try {
    answer = await ask(setup, token, QUESTION);
  } catch (error) {
    if (!unauthorized(error)) throw error;
    token = "sk-agentchaos-refreshed";
    process.stderr.write("token-agent: credential expired; refreshed it, asking again\n");
    answer = await ask(setup, token, QUESTION);
  }
  console.log(`Answer: ${answer.text ?? ""}`);
} catch (error) {
  process.stderr.write(`token-agent: failed: ${error?.constructor?.name ?? "Error"}\n`);
  process.exitCode = 1;
}
