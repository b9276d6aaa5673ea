import { dirname, resolve } from "node:path";
import { LineCounter } from "yaml";
import type * as z from "zod";
import { ScenarioError } from "./errors.js";
import { legacyScenarioSchema } from "./legacy/schema.js";
import { type RunScenario, upgradeScenario } from "./legacy/upgrade.js";
import { SCENARIO_LIMITS } from "./limits.js";
import { writtenPlainScalar } from "./locate.js";
import { toProblems } from "./problems.js";
import { readYamlDocument, toPlainData } from "./read-yaml.js";
import { validateScenario } from "./schema.js";
import { secretMasks } from "./secret-masks.js";

/**
 * A loaded scenario of either schema, in the internal model: a schema-2 file as validated, a
 * schema-1 file validated by the schema-1 rules and upgraded, with what its file format keeps
 * (its events, report and terminal forms) in `legacy` (docs/scenario.md).
 */
export type AnyScenario = RunScenario;

function decodeUtf8(bytes: Uint8Array): string {
  try {
    // A leading byte order mark is dropped, so columns match what an editor shows.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new ScenarioError("SCENARIO_NOT_UTF8", "is not valid UTF-8 text", { cause });
  }
}

/** The error for a file over the size limit, which is refused before it is decoded. */
export function tooLarge(): ScenarioError {
  return new ScenarioError(
    "SCENARIO_TOO_LARGE",
    `is larger than the limit of ${SCENARIO_LIMITS.maxBytes} bytes (1 MiB)`,
  );
}

/**
 * Validates a scenario file's bytes (docs/scenario.md) and returns it in the internal model.
 * `sourcePath` is the file's path; relative `cwd` values resolve against its folder. Throws
 * `ScenarioError` listing every problem (a schema-1 file's problems are those of its own rules).
 */
export function parseScenario(bytes: Uint8Array, sourcePath: string): AnyScenario {
  const absolutePath = resolve(sourcePath);
  if (bytes.length > SCENARIO_LIMITS.maxBytes) throw tooLarge();
  const text = decodeUtf8(bytes);
  const lineCounter = new LineCounter();
  const { doc, comments } = readYamlDocument(text, lineCounter);
  const context = {
    baseDir: dirname(absolutePath),
    writtenNumberAt: (path: readonly PropertyKey[]) => writtenPlainScalar(doc, path),
  };
  const data = toPlainData(doc);
  const schemaTwo = (data as { schema_version?: unknown }).schema_version === 2n;
  const invalid = (issues: readonly z.core.$ZodIssue[]): ScenarioError => {
    const masks = secretMasks(doc, text, comments);
    const problems = toProblems(issues, { doc, text, lineCounter, masks }, { suggest: schemaTwo });
    const count = problems.length;
    return new ScenarioError("SCENARIO_INVALID", `${count} ${count === 1 ? "problem" : "problems"}`, {
      problems,
    });
  };
  if (schemaTwo) {
    const result = validateScenario(data as Record<string, unknown>, context);
    if (result.scenario === null) throw invalid(result.issues);
    return { ...result.scenario, sourcePath: absolutePath };
  }
  const result = legacyScenarioSchema(context).safeParse(data);
  if (!result.success) throw invalid(result.error.issues);
  return upgradeScenario({ ...result.data, sourcePath: absolutePath });
}
