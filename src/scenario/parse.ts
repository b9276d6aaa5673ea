import { dirname, resolve } from "node:path";
import { type Document, isMap, isScalar, isSeq, LineCounter, parseAllDocuments } from "yaml";
import type * as z from "zod";
import { ScenarioError } from "./errors.js";
import { sensitiveRanges } from "./excerpt.js";
import { writtenPlainScalar } from "./locate.js";
import { toProblems } from "./problems.js";
import { scenarioSchema } from "./schema.js";
import type { Scenario } from "./types.js";
import type { ScenarioV2 } from "./types-v2.js";
import { validateScenarioV2 } from "./v2/schema.js";

/** A validated scenario of either schema. */
export type AnyScenario = Scenario | ScenarioV2;

function decodeUtf8(bytes: Uint8Array): string {
  try {
    // A leading byte order mark is dropped, so columns match what an editor shows.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new ScenarioError("SCENARIO_NOT_UTF8", "is not valid UTF-8 text", { cause });
  }
}

function describeTop(doc: Document): string {
  const contents = doc.contents;
  if (isSeq(contents)) return "a list";
  if (isScalar(contents)) {
    const value = contents.value;
    if (value === null) return "null";
    if (typeof value === "string") return "a string";
    if (typeof value === "boolean") return "a boolean";
    return "a number";
  }
  return "not a mapping";
}

/** Parses one YAML document; every way the text itself can fail is a one-line `ScenarioError`. */
function parseDocument(text: string, lineCounter: LineCounter): Document {
  const docs = parseAllDocuments(text, {
    intAsBigInt: true,
    lineCounter,
    prettyErrors: false,
    logLevel: "error",
  });
  const list: readonly Document[] = Array.isArray(docs) ? docs : [];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error !== undefined) {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      const reason = error.message.split("\n")[0] ?? "";
      throw new ScenarioError(
        "SCENARIO_YAML_SYNTAX",
        `YAML syntax error at line ${line}, column ${col}: ${reason}`,
        {
          cause: error,
        },
      );
    }
  }
  if (list.length > 1) {
    throw new ScenarioError(
      "SCENARIO_MULTIPLE_DOCUMENTS",
      `holds ${list.length} YAML documents; expected exactly one`,
    );
  }
  const doc = list[0];
  const contents = doc?.contents;
  if (
    doc === undefined ||
    contents == null ||
    (isScalar(contents) && contents.value === null && !contents.source)
  ) {
    throw new ScenarioError("SCENARIO_EMPTY", "the file is empty; expected a YAML mapping");
  }
  if (!isMap(contents)) {
    throw new ScenarioError(
      "SCENARIO_NOT_MAPPING",
      `the top level is ${describeTop(doc)}; expected a mapping`,
    );
  }
  return doc;
}

function toPlainData(doc: Document): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    // The only failure left after a clean parse: aliases expanding past the limit (a YAML bomb).
    throw new ScenarioError("SCENARIO_YAML_SYNTAX", "YAML aliases expand beyond the limit of 100", { cause });
  }
}

/**
 * Validates a scenario file's bytes (scenario.md). `sourcePath` is the file's path; relative
 * `cwd` values resolve against its folder. Throws `ScenarioError` listing every problem.
 */
export function parseScenario(bytes: Uint8Array, sourcePath: string): AnyScenario {
  const absolutePath = resolve(sourcePath);
  const text = decodeUtf8(bytes);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, lineCounter);
  const context = {
    baseDir: dirname(absolutePath),
    writtenNumberAt: (path: readonly PropertyKey[]) => writtenPlainScalar(doc, path),
  };
  const data = toPlainData(doc);
  const invalid = (issues: readonly z.core.$ZodIssue[]): ScenarioError => {
    const problems = toProblems(issues, { doc, text, lineCounter, masks: sensitiveRanges(doc) });
    const count = problems.length;
    return new ScenarioError("SCENARIO_INVALID", `${count} ${count === 1 ? "problem" : "problems"}`, {
      problems,
    });
  };
  if ((data as { schema_version?: unknown }).schema_version === 2n) {
    const result = validateScenarioV2(data as Record<string, unknown>, context);
    if (result.scenario === null) throw invalid(result.issues);
    return { ...result.scenario, sourcePath: absolutePath };
  }
  const result = scenarioSchema(context).safeParse(data);
  if (!result.success) throw invalid(result.error.issues);
  return { ...result.data, sourcePath: absolutePath };
}
