// Shared knobs of the example LLM agents. The SDK clients are pointed at the URL the agent is
// given (Agent Chaos's proxy during a run), with a dummy key: nothing leaves the machine.

export const EXIT_SDK_ERROR = 1;
const EXIT_USAGE = 2;

function usage(name, message) {
  process.stderr.write(`${name}: ${message}\n`);
  process.exit(EXIT_USAGE);
}

/** A non-negative integer knob, or `fallback` when it is unset or empty. */
function integerKnob(name, variable, fallback) {
  const raw = process.env[variable];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw.trim())) usage(name, `${variable} must be a non-negative integer`);
  return Number(raw.trim());
}

/**
 * Reads LLM_API_URL (else AGENTCHAOS_PROXY_URL), LLM_MODE (complete | stream, default complete),
 * LLM_MAX_RETRIES (integer ≥ 0; absent = the SDK's own default), LLM_PROMPT, and the agent's own
 * resilience knobs: LLM_CALL_ATTEMPTS (whole calls the agent makes itself, default 1 = never calls
 * again), LLM_RETRY_DELAY_MS (pause before calling again, default 250), LLM_REQUIRE_COMPLETE=yes
 * (a stream without its end marker is a failed call) and LLM_STREAM_IDLE_MS (give up on a stream
 * after that long without an event; default none).
 */
export function readAgentConfig(name) {
  const url = process.env.LLM_API_URL || process.env.AGENTCHAOS_PROXY_URL;
  if (!url) usage(name, "LLM_API_URL or AGENTCHAOS_PROXY_URL is required");
  const mode = process.env.LLM_MODE || "complete";
  if (mode !== "complete" && mode !== "stream") usage(name, "LLM_MODE must be complete or stream");
  const requireComplete = process.env.LLM_REQUIRE_COMPLETE || "no";
  if (requireComplete !== "yes" && requireComplete !== "no")
    usage(name, "LLM_REQUIRE_COMPLETE must be yes or no");
  return {
    baseUrl: url.replace(/\/+$/, ""),
    mode,
    maxRetries: integerKnob(name, "LLM_MAX_RETRIES", undefined),
    prompt: process.env.LLM_PROMPT || "Say hello to Agent Chaos",
    callAttempts: Math.max(1, integerKnob(name, "LLM_CALL_ATTEMPTS", 1)),
    retryDelayMs: integerKnob(name, "LLM_RETRY_DELAY_MS", 250),
    requireComplete: requireComplete === "yes",
    streamIdleMs: integerKnob(name, "LLM_STREAM_IDLE_MS", null),
  };
}

/** A stream that ended without its end marker (`finish_reason` / `message_stop`). */
export class IncompleteStream extends Error {}

/** A stream that went quiet for longer than LLM_STREAM_IDLE_MS. */
export class StreamIdle extends Error {}

/**
 * Runs `call` up to `config.callAttempts` times: a failed call (an SDK error, an incomplete or
 * idle stream) is made again after `config.retryDelayMs`, with the same request.
 */
export async function withCallAttempts(name, config, call) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= config.callAttempts) throw error;
      process.stderr.write(
        `${name}: call ${attempt} failed (${error?.constructor?.name ?? "Error"}); calling again\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, config.retryDelayMs));
    }
  }
}

/**
 * Watches a stream for silence: `signal` (for the SDK request) aborts once `idleMs` pass without
 * `touch()`; `check(error?)` then throws StreamIdle. With `idleMs` null it never fires.
 */
export function idleWatchdog(idleMs) {
  const controller = new AbortController();
  let fired = false;
  let timer = null;
  const arm = () => {
    if (idleMs === null) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      controller.abort();
    }, idleMs);
  };
  arm();
  return {
    signal: controller.signal,
    touch: arm,
    stop: () => clearTimeout(timer),
    /** Throws StreamIdle when the watchdog fired, else rethrows `error` if given. */
    check(error) {
      if (fired) throw new StreamIdle();
      if (error !== undefined) throw error;
    },
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
