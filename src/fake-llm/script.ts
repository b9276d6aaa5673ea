import { type Document, LineCounter, parseAllDocuments } from "yaml";
import { ProblemsError } from "../scenario/errors.js";
import { toProblems } from "../scenario/problems.js";
import { FileReadError, readRegularFile } from "../support/regular-file.js";
import { type Script, scriptSchema } from "./script-schema.js";

export type ScriptErrorCode = "SCRIPT_NOT_FOUND" | "SCRIPT_UNREADABLE" | "SCRIPT_SYNTAX" | "SCRIPT_INVALID";

/** Why a `--script` file could not be used: a one-line `detail`, or the `problems` of `SCRIPT_INVALID`. */
export class ScriptError extends ProblemsError<ScriptErrorCode> {}

/** The largest script read (1 MiB, as a scenario): a script is a hand-written list of rules. */
export const SCRIPT_MAX_BYTES = 1024 * 1024;

async function readText(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, SCRIPT_MAX_BYTES);
  } catch (cause) {
    if (!(cause instanceof FileReadError)) throw cause;
    if (cause.code === "FILE_NOT_FOUND")
      throw new ScriptError("SCRIPT_NOT_FOUND", "file not found", { cause });
    if (cause.kind === "folder")
      throw new ScriptError("SCRIPT_UNREADABLE", "is a folder, not a script file", { cause });
    if (cause.code === "FILE_UNREADABLE")
      throw new ScriptError("SCRIPT_UNREADABLE", `cannot read the file (${cause.errno ?? "error"})`, {
        cause,
      });
    throw new ScriptError("SCRIPT_UNREADABLE", cause.reason, { cause });
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new ScriptError("SCRIPT_UNREADABLE", "is not valid UTF-8 text", { cause });
  }
}

/** Parses the one YAML (or JSON, which YAML reads too) document of the file. */
function parseDocument(text: string, lineCounter: LineCounter): Document {
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, logLevel: "error" });
  const list: readonly Document[] = Array.isArray(docs) ? docs : [];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error !== undefined) {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      const reason = error.message.split("\n")[0] ?? "";
      throw new ScriptError("SCRIPT_SYNTAX", `syntax error at line ${line}, column ${col}: ${reason}`, {
        cause: error,
      });
    }
  }
  if (list.length > 1)
    throw new ScriptError("SCRIPT_SYNTAX", `holds ${list.length} YAML documents; expected one`);
  const doc = list[0];
  if (doc === undefined || doc.contents === null) {
    throw new ScriptError("SCRIPT_INVALID", "the file is empty; expected a list of rules");
  }
  return doc;
}

/** Validates a script's text (script-schema.ts); throws `ScriptError` listing every problem. */
export function parseScript(text: string): Script {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, lineCounter);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw new ScriptError("SCRIPT_SYNTAX", "YAML aliases expand beyond the limit of 100", { cause });
  }
  const result = scriptSchema.safeParse(data);
  if (result.success) return result.data;
  const problems = toProblems(result.error.issues, { doc, text, lineCounter, masks: [] });
  const count = problems.length;
  throw new ScriptError("SCRIPT_INVALID", `${count} ${count === 1 ? "problem" : "problems"}`, { problems });
}

/** Reads and validates a `--script` file (YAML or JSON). */
export async function loadScript(path: string): Promise<Script> {
  return parseScript(await readText(path));
}

/** The text printed after `fake-llm: invalid script ` (no trailing newline); one line unless problems are listed. */
export function formatScriptError(error: ScriptError, displayPath: string): string {
  const lines = [`${displayPath}: ${error.detail}`];
  for (const problem of error.problems) {
    lines.push(`  ${problem.path} (line ${problem.line}, column ${problem.column}): ${problem.message}`);
    if (problem.excerpt !== "") lines.push(...problem.excerpt.split("\n").map((line) => `      ${line}`));
  }
  return lines.join("\n");
}
