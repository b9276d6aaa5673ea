/**
 * The last lines of a log in a run folder (the workload's `stderr.log`, a dependency's log),
 * bounded and with secrets masked, for the terminal summary and the HTML page of a failed run.
 *
 * Masked, as `***`: every value of an `env` mapping of the run's `scenario.yaml` and every value
 * of an environment variable whose name looks secret (`KEY`, `TOKEN`, `SECRET`, `PASSWORD`,
 * `AUTH`, `CREDENTIAL`, `COOKIE`), both when at least 4 characters long; in URLs the user
 * information, query and fragment (as scenario error excerpts mask them); `Bearer` tokens; and
 * the value after `api_key=`, `token:` and similar. Control characters are escaped.
 */
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { secretParts } from "../scenario/secret-masks.js";
import { terminalSafe } from "../support/terminal-text.js";

/** Lines shown at most, bytes read from the end of the file at most, characters kept per line. */
export const LOG_TAIL_LIMITS = { lines: 10, bytes: 16 * 1024, lineChars: 300 } as const;

const MASK = "***";
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|AUTH|CREDENTIAL|COOKIE/i;
const MIN_SECRET_LENGTH = 4;
const URL = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>]+/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const NAMED_VALUE =
  /\b((?:api[_-]?key|access[_-]?key|secret|token|password|passwd)["']?\s*[:=]\s*["']?)([^\s"',;&]+)/gi;

/** Every string value under an `env` key anywhere in the parsed scenario. */
function envValues(data: unknown, found: string[]): void {
  if (Array.isArray(data)) {
    for (const item of data) envValues(item, found);
    return;
  }
  if (typeof data !== "object" || data === null) return;
  for (const [key, value] of Object.entries(data)) {
    if (key === "env" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const item of Object.values(value)) if (typeof item === "string") found.push(item);
    } else envValues(value, found);
  }
}

/** The values to hide in the logs of the run in `folder`, longest first. */
export async function secretValues(
  folder: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string[]> {
  const found: string[] = [];
  try {
    envValues(
      parseYaml(await readFile(join(folder, "scenario.yaml"), "utf8"), { logLevel: "silent" }),
      found,
    );
  } catch {
    // No readable scenario copy: only the environment's secrets are known.
  }
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && SECRET_NAME.test(name)) found.push(value);
  }
  const unique = [...new Set(found.filter((value) => value.length >= MIN_SECRET_LENGTH))];
  return unique.sort((a, b) => b.length - a.length);
}

function maskUrl(url: string): string {
  let masked = "";
  let at = 0;
  for (const [from, to] of secretParts(url)) {
    masked += `${url.slice(at, from)}${url[from] === "?" || url[from] === "#" ? url[from] : ""}${MASK}`;
    at = to;
  }
  return masked + url.slice(at);
}

/** One line with every secret masked and control characters escaped. */
export function maskLine(line: string, secrets: readonly string[]): string {
  let text = line;
  for (const secret of secrets) text = text.split(secret).join(MASK);
  text = text
    .replace(URL, maskUrl)
    .replace(BEARER, (_match, scheme: string) => `${scheme} ${MASK}`)
    .replace(NAMED_VALUE, (_match, name: string) => `${name}${MASK}`);
  const safe = terminalSafe(text);
  return safe.length > LOG_TAIL_LIMITS.lineChars ? `${safe.slice(0, LOG_TAIL_LIMITS.lineChars)}…` : safe;
}

/** The first or last bytes of a file (at most `limit`), or null when it cannot be read. */
async function someBytes(
  path: string,
  limit: number,
  from: "start" | "end",
): Promise<{ text: string; cut: boolean } | null> {
  try {
    const handle = await open(path, "r");
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, limit);
      const buffer = Buffer.alloc(length);
      const position = from === "end" ? size - length : 0;
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return { text: buffer.subarray(0, bytesRead).toString("utf8"), cut: size > limit };
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/**
 * The non-empty lines (at most `maxLines`) at one end of `file` in the run folder, masked; an
 * empty list when the file is empty, missing or unreadable. The line cut by the byte limit (the
 * first one read from the end, the last one read from the start) is left out. The last lines are
 * the agent's last words; the first ones are where a program that failed at start (a fake model
 * with a bad script) put its positioned error.
 */
export async function logLines(
  end: "start" | "end",
  folder: string,
  file: string,
  secrets: readonly string[],
  maxLines: number = LOG_TAIL_LIMITS.lines,
  maxBytes: number = LOG_TAIL_LIMITS.bytes,
): Promise<string[]> {
  const read = await someBytes(join(folder, file), maxBytes, end);
  if (read === null) return [];
  const lines = read.text.split(/\r?\n/);
  if (read.cut) {
    if (end === "end") lines.shift();
    else lines.pop();
  }
  const kept = lines.filter((line) => line.trim() !== "");
  const chosen = end === "end" ? kept.slice(-maxLines) : kept.slice(0, maxLines);
  return chosen.map((line) => maskLine(line, secrets));
}
