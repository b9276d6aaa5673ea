#!/usr/bin/env node
// A small agent-like workload with a retry policy, for the bundled examples.
// It reads its dependency URL from CUSTOMER_API_URL; knobs and messages are described in
// docs/examples.md. Error classes printed are fixed names, never raw error text.
import { request } from "./http-client.mjs";

const EXIT_USAGE = 2;

class AttemptError extends Error {
  /** @param {"TimeoutError" | "HTTPStatusError" | "JSONDecodeError" | "TransportError"} errorClass */
  constructor(errorClass, retryAfterSeconds) {
    super(errorClass);
    this.errorClass = errorClass;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

function usage(message) {
  process.stderr.write(`demo-agent: ${message}\n`);
  process.exit(EXIT_USAGE);
}

function intKnob(name, fallback, min, max) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw.trim())) usage(`${name} must be an integer`);
  const value = Number(raw.trim());
  if (value < min || value > max) usage(`${name} must be between ${min} and ${max}`);
  return value;
}

function readConfig() {
  const base = process.env.CUSTOMER_API_URL;
  if (base === undefined || base === "") usage("CUSTOMER_API_URL is required");
  let url;
  try {
    url = new URL(`${base.replace(/\/+$/, "")}/customer/123`);
  } catch {
    usage("CUSTOMER_API_URL must be an absolute URL");
  }
  return {
    url,
    timeoutMs: intKnob("DEMO_TIMEOUT_MS", 150, 1, 3_600_000),
    maxAttempts: intKnob("DEMO_MAX_ATTEMPTS", 3, 1, 1000),
    refreshes: intKnob("DEMO_REFRESHES", 1, 0, 1000),
    backoffMs: intKnob("DEMO_BACKOFF_MS", 50, 0, 3_600_000),
    exhaustedExitCode: intKnob("DEMO_EXHAUSTED_EXIT_CODE", 1, 0, 255),
  };
}

function classify(error) {
  if (error instanceof AttemptError) return error;
  if (error?.name === "TimeoutError") return new AttemptError("TimeoutError");
  return new AttemptError("TransportError");
}

function retryAfterSeconds(response) {
  if (response.status !== 429) return undefined;
  const header = response.header("retry-after")?.trim();
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** One GET of the customer; resolves with the parsed body or rejects with an AttemptError. */
async function fetchCustomer(config) {
  try {
    const response = await request(config.url, { timeoutMs: config.timeoutMs });
    const text = response.text;
    if (response.status >= 400) throw new AttemptError("HTTPStatusError", retryAfterSeconds(response));
    try {
      return JSON.parse(text);
    } catch {
      throw new AttemptError("JSONDecodeError");
    }
  } catch (error) {
    throw classify(error);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function refresh(config, cycle) {
  for (let attempt = 1; attempt <= config.maxAttempts; attempt += 1) {
    try {
      await fetchCustomer(config);
      const where = config.refreshes > 1 ? ` in cycle ${cycle}` : "";
      console.log(`Refreshed customer 123${where} on attempt ${attempt}`);
      return true;
    } catch (error) {
      console.log(`Attempt ${attempt} failed: ${error.errorClass}`);
      if (attempt === config.maxAttempts) return false;
      const delayMs =
        error.retryAfterSeconds !== undefined
          ? error.retryAfterSeconds * 1000
          : config.backoffMs * 2 ** (attempt - 1);
      await sleep(delayMs);
    }
  }
  return false;
}

async function main() {
  const config = readConfig();
  try {
    await fetchCustomer(config);
  } catch (error) {
    console.log(`Initial load failed: ${error.errorClass}`);
    return 1;
  }
  console.log("Loaded customer 123");

  for (let cycle = 1; cycle <= config.refreshes; cycle += 1) {
    if (!(await refresh(config, cycle))) return config.exhaustedExitCode;
  }
  return 0;
}

process.on("SIGTERM", () => process.exit(143));
process.on("SIGINT", () => process.exit(130));
process.exitCode = await main();
