#!/usr/bin/env node
// An example agent on the Vercel AI SDK (`ai` with `@ai-sdk/openai`): it asks the model about the
// weather, with one tool, get_weather, backed by the fake API's `GET /weather/<city>`. When the
// weather service fails, the tool does not throw: it tells the model the service is unavailable,
// and the agent answers anyway (graceful degradation, exit 0). The weather call is not retried.
// Reads AGENTCHAOS_LLM_URL (the model API, without `/v1`) and AGENTCHAOS_WEATHER_URL.
// Exit codes: 0 answered, 1 the model call failed, 2 bad configuration. Prints fixed words only.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import * as z from "zod";

function url(name) {
  const value = process.env[name];
  if (value === undefined || value === "") {
    process.stderr.write(`weather-agent: ${name} is required\n`);
    process.exit(2);
  }
  return value.replace(/\/+$/, "");
}

const llm = url("AGENTCHAOS_LLM_URL");
const weather = url("AGENTCHAOS_WEATHER_URL");
const openai = createOpenAI({ baseURL: `${llm}/v1`, apiKey: "sk-agentchaos-dummy" });

const getWeather = tool({
  description: "The current weather in a city",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    try {
      const response = await fetch(`${weather}/weather/${encodeURIComponent(city)}`, {
        signal: AbortSignal.timeout(2000),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      console.log("weather: forecast received");
      return await response.json();
    } catch {
      console.log("weather: service unavailable, telling the model");
      return { error: "The weather service is unavailable right now. Answer without it." };
    }
  },
});

try {
  const result = await generateText({
    model: openai("fake-gpt"),
    prompt: "What is the weather in Paris?",
    tools: { get_weather: getWeather },
    stopWhen: stepCountIs(3),
  });
  console.log(`Answer: ${result.text.length} characters after ${result.steps.length} steps`);
} catch (error) {
  console.log(`The model call failed (${error?.constructor?.name ?? "Error"})`);
  process.exitCode = 1;
}
