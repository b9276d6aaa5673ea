#!/usr/bin/env node
// A weather agent whose model may answer with broken tool-call arguments (llm_misbehave
// tool_args_invalid). With REASK_ON_BAD_TOOL_CALL=yes it asks the model the same question again
// (at most twice more); otherwise the parse error ends it with exit 1. MODEL_SDK picks the client.
import { argumentsOf, ask, readSetup } from "./clients.mjs";

const setup = readSetup("tool-agent");
const reask = process.env.REASK_ON_BAD_TOOL_CALL === "yes";
const QUESTION = "What is the weather in Paris?";

async function main() {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const answer = await ask(setup, "sk-agentchaos-dummy", QUESTION);
    if (answer.call === undefined) return answer.text;
    let args;
    try {
      args = argumentsOf(setup, answer.call);
    } catch (error) {
      if (!reask) throw error;
      process.stderr.write(`tool-agent: unusable tool arguments (${error.constructor.name}); asking again\n`);
      continue;
    }
    if (setup.sdk === "ai-sdk") return `The weather tool was asked about ${args.city}.`;
    const content = JSON.stringify({ city: args.city, sky: "sunny" });
    const final = await ask(setup, "sk-agentchaos-dummy", QUESTION, { call: answer.call.raw, content });
    return final.text;
  }
  throw new Error("no usable answer after three attempts");
}

try {
  console.log(`Answer: ${await main()}`);
} catch (error) {
  process.stderr.write(`tool-agent: failed: ${error?.constructor?.name ?? "Error"}\n`);
  process.exitCode = 1;
}
