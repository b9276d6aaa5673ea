/**
 * Reading a saved run folder for the reporters: `report.json` of any schema this tool writes
 * (1–4) and `events.jsonl`, read loosely (the strict readers are `inspect`'s). Opens nothing
 * else and never writes. Large integers (a probability seed) are kept as their digits.
 */
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse } from "lossless-json";
import { AgentChaosError } from "../support/errors.js";

export class SavedRunError extends AgentChaosError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("SAVED_RUN_UNREADABLE", message, options);
  }
}

export type JsonObject = Readonly<Record<string, unknown>>;

function parseNumber(text: string): number | string {
  const value = Number(text);
  return /^-?\d+$/.test(text) && !Number.isSafeInteger(value) ? text : value;
}

function errnoCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : "error";
}

/** Whether a path is a folder (false when it does not exist). */
export async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The run folder's `report.json` as a JSON object with a supported `schema_version`. */
export async function readSavedReport(folder: string): Promise<{ report: JsonObject; path: string }> {
  const path = resolve(join(folder, "report.json"));
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = errnoCode(error);
    throw new SavedRunError(
      code === "ENOENT" ? "report.json not found" : `report.json is unreadable (${code})`,
      {
        cause: error,
      },
    );
  }
  let report: unknown;
  try {
    report = parse(text, null, parseNumber);
  } catch (error) {
    throw new SavedRunError("report.json is malformed JSON", { cause: error });
  }
  if (typeof report !== "object" || report === null || Array.isArray(report)) {
    throw new SavedRunError("report.json is not a JSON object");
  }
  const version = (report as JsonObject).schema_version;
  if (version !== 1 && version !== 2 && version !== 3 && version !== 4) {
    throw new SavedRunError("report.json schema version is unsupported");
  }
  return { report: report as JsonObject, path };
}

/**
 * The run folder's events, one object per line that parses (a crash may leave a last partial
 * line, which is skipped). A missing file gives no events.
 */
export async function readSavedEvents(folder: string): Promise<JsonObject[]> {
  let text: string;
  try {
    text = await readFile(join(folder, "events.jsonl"), "utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw new SavedRunError(`events.jsonl is unreadable (${errnoCode(error)})`, { cause: error });
  }
  const events: JsonObject[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const event = JSON.parse(line) as unknown;
      if (typeof event === "object" && event !== null && !Array.isArray(event))
        events.push(event as JsonObject);
    } catch {
      // A torn last line.
    }
  }
  return events;
}
