import type { Document, LineCounter } from "yaml";
import type * as z from "zod";
import type { ScenarioProblem } from "./errors.js";
import { excerptAt, type Mask } from "./excerpt.js";
import { formatKeyPath, type KeyPath, locate, startOf } from "./locate.js";
import { withSuggestion } from "./suggest.js";

/** Where the problems point: the parsed document, its text and line index, and what must stay hidden. */
export interface ProblemSource {
  readonly doc: Document;
  readonly text: string;
  readonly lineCounter: LineCounter;
  readonly masks: readonly Mask[];
}

function problemAt(source: ProblemSource, path: KeyPath, message: string, atKey: boolean): ScenarioProblem {
  const found = locate(source.doc, path, { key: atKey });
  const offset = found === null ? 0 : startOf(found.node);
  const { line, column, excerpt } = excerptAt(source.text, source.lineCounter, offset, source.masks);
  return { path: formatKeyPath(path), line, column, message, excerpt };
}

/**
 * Turns schema issues into problems that point into the file. An unknown key becomes one
 * problem per key, at the key itself; a missing key points at its parent mapping; every other
 * issue points at the offending value. Sorted by position, duplicates dropped. With `suggest`
 * (schema 2), a misspelt key or word gets a "did you mean" (see suggest.ts).
 */
export function toProblems(
  issues: readonly z.core.$ZodIssue[],
  source: ProblemSource,
  options: { readonly suggest?: boolean } = {},
): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const said = (message: string, path: KeyPath): string =>
    options.suggest === true ? withSuggestion(message, source.doc.getIn(path as PropertyKey[])) : message;
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const message = `unknown key ${JSON.stringify(key)}; ${issue.message}`;
        problems.push(problemAt(source, [...issue.path, key], said(message, [...issue.path, key]), true));
      }
    } else {
      problems.push(
        problemAt(source, issue.path, said(issue.message, issue.path), issue.code === "invalid_key"),
      );
    }
  }
  const seen = new Set<string>();
  return problems
    .filter((problem) => {
      const id = `${problem.path}\n${problem.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => a.line - b.line || a.column - b.column || a.path.localeCompare(b.path));
}
