import {
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  Lexer,
  type LineCounter,
  Parser,
} from "yaml";
import { ScenarioError } from "./errors.js";
import type { Mask } from "./excerpt.js";
import { SCENARIO_LIMITS } from "./limits.js";

/** The lexer's zero-width marker that announces a scalar's text as the next lexeme. */
const SCALAR_MARKER = "\u001f";
const COLLECTIONS = new Set(["block-map", "block-seq", "flow-collection"]);
/**
 * `-`, `?`, `:` and `,`: one entry brings at most three (`? k : v,` in a flow mapping), and a
 * flow collection one more (a trailing comma), so past this many there are too many entries:
 * refused while lexing, before anything is composed.
 */
const ENTRY_INDICATORS = new Set(["-", "?", ":", ","]);
const MAX_INDICATORS = 4 * SCENARIO_LIMITS.maxEntries + 1;

function tooManyEntries(): ScenarioError {
  return new ScenarioError(
    "SCENARIO_TOO_LARGE",
    `holds more than ${SCENARIO_LIMITS.maxEntries} mapping entries and list items`,
  );
}

/** How many collections are open: the parser's stack also holds the document and scalars. */
function collectionDepth(parser: Parser): number {
  let depth = 0;
  for (const token of parser.stack) if (COLLECTIONS.has(token.type)) depth++;
  return depth;
}

function syntaxError(
  lineCounter: LineCounter,
  offset: number,
  reason: string,
  cause?: unknown,
): ScenarioError {
  const { line, col } = lineCounter.linePos(offset);
  return new ScenarioError(
    "SCENARIO_YAML_SYNTAX",
    `YAML syntax error at line ${line}, column ${col}: ${reason}`,
    {
      cause,
    },
  );
}

/**
 * Parses YAML text into documents as `yaml`'s `parseAllDocuments` does, but drives the lexer
 * and parser itself so that nesting is refused as soon as it passes the limit (before any
 * recursive step sees it), and collects the comments' source ranges (masked in excerpts).
 */
function composeDocuments(
  text: string,
  lineCounter: LineCounter,
): { docs: Document.Parsed[]; comments: Mask[] } {
  const parser = new Parser(lineCounter.addNewLine);
  const comments: Mask[] = [];
  function* tokens(): Generator<CST.Token> {
    lineCounter.addNewLine(0);
    let scalarText = false;
    let indicators = 0;
    for (const lexeme of new Lexer().lex(text)) {
      if (!scalarText) {
        if (lexeme.startsWith("#")) comments.push([parser.offset, parser.offset + lexeme.length]);
        else if (ENTRY_INDICATORS.has(lexeme) && ++indicators > MAX_INDICATORS) throw tooManyEntries();
      }
      scalarText = lexeme === SCALAR_MARKER;
      yield* parser.next(lexeme);
      if (
        parser.stack.length > SCENARIO_LIMITS.maxDepth + 1 &&
        collectionDepth(parser) > SCENARIO_LIMITS.maxDepth
      ) {
        const { line, col } = lineCounter.linePos(parser.offset);
        throw new ScenarioError(
          "SCENARIO_TOO_LARGE",
          `nests deeper than ${SCENARIO_LIMITS.maxDepth} levels (at line ${line}, column ${col})`,
        );
      }
    }
    yield* parser.end();
  }
  // Duplicate keys are found below in one pass: the composer's own check is quadratic in the keys.
  const composer = new Composer({ intAsBigInt: true, uniqueKeys: false, logLevel: "error" });
  const docs = Array.from(composer.compose(tokens())) as Document.Parsed[];
  return { docs, comments };
}

interface WalkState {
  entries: number;
  readonly anchors: Set<string>;
  /** The first structural problem in document order: its offset and reason. */
  problem: { offset: number; reason: string } | null;
}

/** A scalar key's identity: equal keys as YAML's own uniqueness check sees them. */
function keyIdentity(key: unknown): string | null {
  if (!isScalar(key)) return null;
  return `${typeof key.value}:${String(key.value)}`;
}

/**
 * One pass over the document, in order: counts entries, finds the first duplicate key and the
 * first alias that names no earlier anchor. Recursion depth is bounded by the nesting limit.
 */
function walk(node: unknown, state: WalkState): void {
  if (state.entries > SCENARIO_LIMITS.maxEntries) return;
  if (isAlias(node)) {
    if (!state.anchors.has(node.source) && state.problem === null) {
      state.problem = {
        offset: node.range?.[0] ?? 0,
        reason: "an alias refers to an anchor that is not defined before it",
      };
    }
    return;
  }
  if (!isNode(node)) return;
  if (node.anchor !== undefined) state.anchors.add(node.anchor);
  if (isMap(node)) {
    state.entries += node.items.length;
    const seen = new Set<string>();
    for (const pair of node.items) {
      const identity = keyIdentity(pair.key);
      if (identity !== null) {
        if (seen.has(identity) && state.problem === null) {
          state.problem = {
            offset: (pair.key as { range?: [number] }).range?.[0] ?? 0,
            reason: "Map keys must be unique",
          };
        }
        seen.add(identity);
      }
      walk(pair.key, state);
      walk(pair.value, state);
    }
  } else if (isSeq(node)) {
    state.entries += node.items.length;
    for (const item of node.items) walk(item, state);
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
  return isMap(contents) ? "a mapping" : "not a mapping";
}

/**
 * Reads the one YAML document of a scenario; every way the text itself can fail (syntax,
 * several documents, empty, not a mapping — or not a list, with `top: "list"` (an explore menu)
 * — a limit passed) is a one-line `ScenarioError`.
 * Also returns the source ranges of the comments.
 */
export function readYamlDocument(
  text: string,
  lineCounter: LineCounter,
  top: "mapping" | "list" = "mapping",
): { doc: Document; comments: Mask[] } {
  const { docs, comments } = composeDocuments(text, lineCounter);
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error !== undefined) {
      throw syntaxError(lineCounter, error.pos[0], error.message.split("\n")[0] ?? "", error);
    }
  }
  if (docs.length > 1) {
    throw new ScenarioError(
      "SCENARIO_MULTIPLE_DOCUMENTS",
      `holds ${docs.length} YAML documents; expected exactly one`,
    );
  }
  const doc = docs[0];
  const contents = doc?.contents;
  if (
    doc === undefined ||
    contents == null ||
    (isScalar(contents) && contents.value === null && !contents.source)
  ) {
    throw new ScenarioError("SCENARIO_EMPTY", `the file is empty; expected a YAML ${top}`);
  }
  const state: WalkState = { entries: 0, anchors: new Set(), problem: null };
  walk(contents, state);
  if (state.entries > SCENARIO_LIMITS.maxEntries) throw tooManyEntries();
  if (state.problem !== null) throw syntaxError(lineCounter, state.problem.offset, state.problem.reason);
  if (top === "mapping" ? !isMap(contents) : !isSeq(contents)) {
    throw new ScenarioError(
      "SCENARIO_NOT_MAPPING",
      `the top level is ${describeTop(doc)}; expected a ${top}`,
    );
  }
  return { doc, comments };
}

/** The document as plain data; aliases may expand at most `maxAliasCount` times. */
export function toPlainData(doc: Document): unknown {
  try {
    return doc.toJS({ maxAliasCount: SCENARIO_LIMITS.maxAliasCount });
  } catch (cause) {
    // Undefined aliases were reported above: what is left is an alias bomb.
    throw new ScenarioError(
      "SCENARIO_YAML_SYNTAX",
      `YAML aliases expand beyond the limit of ${SCENARIO_LIMITS.maxAliasCount}`,
      { cause },
    );
  }
}
