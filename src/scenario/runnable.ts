import * as z from "zod";
import { expecting, nonEmptyString } from "./fields.js";

/**
 * Rules beyond the shape of docs/scenario.md that make `validate` refuse exactly what `run` would
 * refuse for a reason in the file itself: the operating system takes no NUL byte in a
 * command, path or environment value, the proxy and readiness decode a `base_url`'s user
 * information, and a few variable names cannot carry the proxy URL. No message echoes a value.
 */

const hasNul = (text: string): boolean => text.includes("\0");

/** A command item or a path: non-empty, no NUL byte. */
export function commandText(expected: string) {
  return nonEmptyString(expected).refine((text) => !hasNul(text), {
    error: `expected ${expected} without NUL characters`,
  });
}

/** An environment value (never echoed: it may be a secret). */
export function envValue() {
  return z
    .string({ error: expecting("a string value", false) })
    .refine((text) => !hasNul(text), { error: "expected a string value without NUL characters" });
}

function decodes(part: string): boolean {
  try {
    // The result is used: a bundler may drop a call it takes for side-effect free.
    return typeof decodeURIComponent(part) === "string";
  } catch {
    return false;
  }
}

/** Whether a base URL's user information decodes (every `%` starts a valid escape of UTF-8). */
export function userInfoDecodes(text: string): boolean {
  if (!URL.canParse(text)) return true;
  const url = new URL(text);
  return decodes(url.username) && decodes(url.password);
}

export const USER_INFO_ERROR =
  "expected user information whose %-escapes are valid (% followed by two hex digits, encoding UTF-8)";

/**
 * Names `proxy_url_env` may not take: `PATH` (the workload's command is looked up on it) and
 * `AGENTCHAOS_RUN_ID` (the run id would be overwritten). `AGENTCHAOS_PROXY_URL` is allowed:
 * it holds the same URL anyway.
 */
const RESERVED_PROXY_URL_NAMES = new Set(["PATH", "AGENTCHAOS_RUN_ID"]);

export function notReservedProxyUrlName(name: string): boolean {
  return !RESERVED_PROXY_URL_NAMES.has(name);
}

export const RESERVED_NAME_ERROR =
  "expected a variable name other than PATH (the command is looked up on it) and AGENTCHAOS_RUN_ID (reserved)";
