#!/usr/bin/env node
// An agent that asks the model several questions in a row, for the quota and outage examples.
// MODEL_SDK picks the client; RETRIES says what it does when a call fails:
//   sdk   — the client's own retries (exponential backoff, honouring Retry-After), up to 5;
//   storm — its own loop: ask again at once (100 ms apart), up to 60 times, ignoring Retry-After;
//   none  — no retry: the first failure ends the agent with exit 1.
// QUESTIONS (default 4) questions are asked back to back; with KEEP_ASKING_MS it keeps asking,
// 250 ms apart, until that long has passed.
import { setTimeout as sleep } from "node:timers/promises";
import { ask, readSetup } from "./clients.mjs";

const setup = readSetup("paced-agent");
const mode = process.env.RETRIES || "sdk";
if (!["sdk", "storm", "none"].includes(mode)) {
  process.stderr.write("paced-agent: RETRIES must be sdk, storm or none\n");
  process.exit(2);
}
const questions = Number(process.env.QUESTIONS || "4");
const keepAskingMs = Number(process.env.KEEP_ASKING_MS || "0");

async function askOnce(question) {
  if (mode === "sdk") return ask(setup, "sk-agentchaos", question, null, 5);
  if (mode === "none") return ask(setup, "sk-agentchaos", question);
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask(setup, "sk-agentchaos", question);
    } catch (error) {
      if (attempt >= 60) throw error;
      await sleep(100);
    }
  }
}

try {
  const started = performance.now();
  let asked = 0;
  while (asked < questions || performance.now() - started < keepAskingMs) {
    asked += 1;
    const answer = await askOnce(`Question ${asked}: how is the weather?`);
    console.log(`Answer ${asked}: ${answer.text ?? ""}`);
    if (keepAskingMs > 0) await sleep(250);
  }
} catch (error) {
  process.stderr.write(
    `paced-agent: failed: ${error?.constructor?.name ?? "Error"} (${error?.status ?? error?.statusCode ?? "no status"})\n`,
  );
  process.exitCode = 1;
}
