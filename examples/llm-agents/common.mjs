// Shared knobs of the example LLM agents. The SDK clients are pointed at the URL the agent is
// given (Agent Chaos's proxy during a run), with a dummy key: nothing leaves the machine.

export const EXIT_SDK_ERROR = 1;
const EXIT_USAGE = 2;

function usage(name, message) {
  process.stderr.write(`${name}: ${message}\n`);
  process.exit(EXIT_USAGE);
}

/**
 * Reads LLM_API_URL (else AGENTCHAOS_PROXY_URL), LLM_MODE (complete | stream, default complete),
 * LLM_MAX_RETRIES (integer ≥ 0; absent = the SDK's own default) and LLM_PROMPT.
 */
export function readAgentConfig(name) {
  const url = process.env.LLM_API_URL || process.env.AGENTCHAOS_PROXY_URL;
  if (!url) usage(name, "LLM_API_URL or AGENTCHAOS_PROXY_URL is required");
  const mode = process.env.LLM_MODE || "complete";
  if (mode !== "complete" && mode !== "stream") usage(name, "LLM_MODE must be complete or stream");
  const retries = process.env.LLM_MAX_RETRIES;
  if (retries !== undefined && retries !== "" && !/^\d+$/.test(retries.trim())) {
    usage(name, "LLM_MAX_RETRIES must be a non-negative integer");
  }
  return {
    baseUrl: url.replace(/\/+$/, ""),
    mode,
    maxRetries: retries === undefined || retries === "" ? undefined : Number(retries.trim()),
    prompt: process.env.LLM_PROMPT || "Say hello to Agent Chaos",
  };
}

/** The client options shared by both SDKs; `maxRetries` only when the knob is set. */
export function clientOptions(config, baseURL) {
  return {
    baseURL,
    apiKey: "sk-agentchaos-dummy",
    ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
  };
}

/** Runs the agent body; an error prints its class name only (never its message) and exits 1. */
export async function runAgent(name, body) {
  process.on("SIGTERM", () => process.exit(143));
  process.on("SIGINT", () => process.exit(130));
  try {
    await body();
    process.exitCode = 0;
  } catch (error) {
    const className = error?.constructor?.name ?? "Error";
    process.stderr.write(`${name}: LLM call failed: ${className}\n`);
    process.exitCode = EXIT_SDK_ERROR;
  }
}
