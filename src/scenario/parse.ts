import { dirname, resolve } from "node:path";
import { LineCounter } from "yaml";
import type * as z from "zod";
import { ScenarioError } from "./errors.js";
import { SCENARIO_LIMITS } from "./limits.js";
import { writtenPlainScalar } from "./locate.js";
import { toProblems } from "./problems.js";
import { readYamlDocument, toPlainData } from "./read-yaml.js";
import { scenarioSchema } from "./schema.js";
import { secretMasks } from "./secret-masks.js";
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

/** The error for a file over the size limit, which is refused before it is decoded. */
export function tooLarge(): ScenarioError {
  return new ScenarioError(
    "SCENARIO_TOO_LARGE",
    `is larger than the limit of ${SCENARIO_LIMITS.maxBytes} bytes (1 MiB)`,
  );
}

/**
 * Validates a scenario file's bytes (docs/scenario.md). `sourcePath` is the file's path; relative
 * `cwd` values resolve against its folder. Throws `ScenarioError` listing every problem.
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
    const result = validateScenarioV2(data as Record<string, unknown>, context);
    if (result.scenario === null) throw invalid(result.issues);
    return { ...result.scenario, sourcePath: absolutePath };
  }
  const result = scenarioSchema(context).safeParse(data);
  if (!result.success) throw invalid(result.error.issues);
  return { ...result.data, sourcePath: absolutePath };
}
