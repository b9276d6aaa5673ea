/**
 * `--menu FILE`: a YAML list of fault bodies (type, its own keys, optional `expect`), validated
 * like a scenario's faults — every problem with its key path, line, column and a caret excerpt —
 * and with the same rules (docs/faults.md, docs/mcp.md). `target`, `trigger`, `dependency` and `id`
 * are explore's to set.
 */
import { LineCounter } from "yaml";
import type * as z from "zod";
import { ScenarioError } from "../scenario/errors.js";
import { validateFaults } from "../scenario/faults.js";
import { SCENARIO_LIMITS } from "../scenario/limits.js";
import { toProblems } from "../scenario/problems.js";
import { readYamlDocument, toPlainData } from "../scenario/read-yaml.js";
import { secretMasks } from "../scenario/secret-masks.js";
import type { Fault } from "../scenario/types.js";
import { FileReadError, readRegularFile } from "../support/regular-file.js";
import { placeholderDependency } from "./availability.js";
import { ExploreError } from "./errors.js";
import { type MenuEntry, menuLabel } from "./menu.js";

type Issue = z.core.$ZodIssue;

/** Keys explore sets itself, with why. */
const EXPLORE_KEYS: Readonly<Record<string, string>> = {
  target: "explore targets each injection point's method and path itself",
  trigger: "explore triggers each fault on its injection point's occurrence itself",
  dependency: "explore applies each entry to the dependencies it fits",
  id: "explore names each experiment's faults itself",
};

const MAX_ENTRIES = 64;

function custom(path: PropertyKey[], message: string): Issue {
  return { code: "custom", path, message, input: undefined } as Issue;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function describeTop(value: unknown): string {
  if (value === null) return "null";
  if (isMapping(value)) return "a mapping";
  return `a ${typeof value === "bigint" ? "number" : typeof value}`;
}

/** The own-key list of a fault's "expected one of ..." message, without the keys explore sets. */
function menuKeysMessage(message: string, type: unknown): string {
  const match = /^expected one of (.+) \(.+\)$/.exec(message);
  if (match === null) return message;
  const keys = (match[1] ?? "").split(", ").filter((key) => !Object.hasOwn(EXPLORE_KEYS, key));
  return `expected one of ${keys.join(", ")} (${typeof type === "string" ? `an ${type} ` : "a "}menu entry)`;
}

/** Validates one entry as a fault with placeholder target and trigger; issues are re-based on `index`. */
function validateEntry(raw: Record<string, unknown>, index: number, issues: Issue[]): Fault | undefined {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const why = EXPLORE_KEYS[key];
    if (why === undefined) body[key] = value;
    else
      issues.push({
        code: "invalid_key",
        path: [index, key],
        message: `expected no ${key} in a menu entry: ${why}`,
        input: undefined,
      } as unknown as Issue);
  }
  const mcp = typeof body.type === "string" && body.type.startsWith("mcp_");
  const dependency = placeholderDependency("menu", mcp);
  const target = mcp
    ? { method: body.type === "mcp_tool_error" ? "tools/call" : "initialize" }
    : { path: "/" };
  const result = validateFaults([{ ...body, target, trigger: { occurrence: 1n } }], [dependency], () => null);
  for (const issue of result.issues) {
    const path = [index, ...issue.path.slice(1)];
    if (issue.code === "unrecognized_keys") {
      issues.push({
        code: "unrecognized_keys",
        path,
        keys: issue.keys ?? [],
        message: menuKeysMessage(issue.message, body.type),
        input: undefined,
      } as unknown as Issue);
    } else {
      issues.push(custom(path, issue.message));
    }
  }
  return result.issues.length === 0 ? result.faults[0] : undefined;
}

export interface MenuChecks {
  /** Why this build cannot run the fault (one line), or null when it can. */
  readonly unavailable?: (fault: Fault) => string | null;
}

/** Validates a menu file's bytes; throws `ExploreError` (`MENU_INVALID`, with problems when positioned). */
export function parseMenu(bytes: Uint8Array, checks: MenuChecks = {}): MenuEntry[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new ExploreError("MENU_UNREADABLE", "is not valid UTF-8 text", { cause });
  }
  const lineCounter = new LineCounter();
  let read: ReturnType<typeof readYamlDocument>;
  let data: unknown;
  try {
    // The scenario loader's reader, with its limits (size, depth, entries, aliases), for a list.
    read = readYamlDocument(text, lineCounter, "list");
    data = toPlainData(read.doc);
  } catch (cause) {
    if (!(cause instanceof ScenarioError)) throw cause;
    throw new ExploreError(
      "MENU_INVALID",
      cause.detail.replace(/expected a (YAML )?list$/, "expected a list of faults"),
      { cause },
    );
  }
  const { doc, comments } = read;
  if (!Array.isArray(data)) throw new ExploreError("MENU_INVALID", "expected a list of faults");
  const issues: Issue[] = [];
  if (data.length === 0) issues.push(custom([], "expected a list of at least one fault, got an empty list"));
  if (data.length > MAX_ENTRIES)
    issues.push(custom([], `expected at most ${MAX_ENTRIES} faults, got ${data.length}`));
  const entries: MenuEntry[] = [];
  const labels = new Map<string, number>();
  data.forEach((raw: unknown, index) => {
    if (!isMapping(raw)) {
      issues.push(custom([index], `expected a fault mapping, got ${describeTop(raw)}`));
      return;
    }
    const fault = validateEntry(raw, index, issues);
    if (fault === undefined) return;
    const unavailable = checks.unavailable?.(fault) ?? null;
    if (unavailable !== null) {
      issues.push(custom([index, "type"], unavailable));
      return;
    }
    const label = menuLabel(fault);
    const earlier = labels.get(label);
    if (earlier !== undefined) {
      issues.push(custom([index], `expected a fault not already on the menu; [${earlier}] is the same`));
      return;
    }
    labels.set(label, index);
    entries.push({ id: `M${entries.length + 1}`, label, fault, scope: "any" });
  });
  if (issues.length > 0) {
    const problems = toProblems(issues, { doc, text, lineCounter, masks: secretMasks(doc, text, comments) });
    const count = problems.length;
    throw new ExploreError("MENU_INVALID", `${count} ${count === 1 ? "problem" : "problems"}`, { problems });
  }
  return entries;
}

function menuReadError(cause: unknown): ExploreError {
  if (!(cause instanceof FileReadError)) throw cause;
  if (cause.code === "FILE_NOT_FOUND") return new ExploreError("MENU_NOT_FOUND", "file not found", { cause });
  if (cause.kind === "folder") return new ExploreError("MENU_UNREADABLE", "is a folder, not a menu file");
  if (cause.code === "FILE_NOT_REGULAR")
    return new ExploreError("MENU_UNREADABLE", `is not a regular file (a ${cause.kind})`);
  if (cause.code === "FILE_TOO_LARGE") {
    return new ExploreError(
      "MENU_UNREADABLE",
      `is larger than the limit of ${SCENARIO_LIMITS.maxBytes} bytes (1 MiB)`,
    );
  }
  return new ExploreError("MENU_UNREADABLE", `cannot read the file (${cause.errno ?? "error"})`, { cause });
}

/** Reads and validates a menu file. */
export async function loadMenu(path: string, checks: MenuChecks = {}): Promise<MenuEntry[]> {
  const bytes = await readRegularFile(path, SCENARIO_LIMITS.maxBytes).catch((cause: unknown) => {
    throw menuReadError(cause);
  });
  return parseMenu(bytes, checks);
}
