/**
 * `suite.json` (docs/suites.md): the one record of a suite, written always, read back by `report`
 * and `merge`. Written atomically with two-space indentation and a final newline. Version 1;
 * version 2 when its entries carry trials (see docs/trials.md), each then with a `trials` object.
 */
import { join } from "node:path";
import * as z from "zod";
import type { RunResult } from "../events/types.js";
import { FileReadError, readRegularFile } from "../support/regular-file.js";
import { SuiteError } from "./suite-errors.js";
import { summaryFields, TRIAL_CLASSES, type TrialsRecord } from "./trials.js";
import type { VerifyRecord } from "./v4/truth.js";

export const SUITE_FILE_NAME = "suite.json";

/** How a run ended, as suite entries and explore records write it. */
export interface RunOutcomeRecord {
  readonly result: RunResult;
  readonly reason_code: string;
  readonly exit_code: number;
  readonly duration_ms: number;
}

/** In the file `path` and `name` come first, then the outcome. */
export interface SuiteEntry extends RunOutcomeRecord {
  /** The scenario file, relative to the current directory of the suite run. */
  readonly path: string;
  readonly name: string;
  /** The run folder, relative to the folder holding suite.json; `null` for an invalid scenario. */
  readonly run_folder: string | null;
  /** Only for `SCENARIO_INVALID` entries: the problems, one line each. */
  readonly problems?: readonly string[];
  /**
   * Only in a suite run with trials: the series' summary (trial run folders relative to the
   * folder holding suite.json). `result` is then PASSED or FAILED by the minimum pass rate,
   * `reason_code` the class, `run_folder` the trials folder.
   */
  readonly trials?: TrialsRecord;
  /** Only for a run whose scenario has a verify command: how it ended (null: it did not run). */
  readonly verify?: SuiteVerify | null;
}

/** A suite entry's verify outcome (docs/suites.md). */
export type SuiteVerify = VerifyRecord;

export interface SuiteShard {
  readonly index: number;
  readonly total: number;
}

export interface SuiteDocument {
  /** 2 when any entry carries `trials`, else 1. */
  readonly schema_version: 1 | 2;
  readonly suite_id: string;
  readonly started_at: string;
  readonly finished_at: string;
  readonly interrupted: boolean;
  readonly shard: SuiteShard | null;
  readonly entries: readonly SuiteEntry[];
}

const count = z.number().int().nonnegative();
const runResult = z.enum(["PASSED", "RECOVERED", "FAILED"]);
const rate = z.number().min(0).max(1);

const trialsSchema = z.strictObject({
  trials: count,
  passed: count,
  pass_rate: rate,
  pass_hat_k: z.boolean(),
  pass_at_k: z.boolean(),
  wilson_95: z.tuple([rate, rate]),
  class: z.enum(TRIAL_CLASSES as ["stable_pass", "flaky", "stable_fail"]),
  outcomes: z.array(z.strictObject({ result: runResult, reason_code: z.string().min(1), count })),
  runs: z.array(
    z.strictObject({
      trial: z.number().int().positive(),
      result: runResult,
      reason_code: z.string().min(1),
      duration_ms: count,
      run_folder: z.string().min(1).nullable(),
    }),
  ),
  min_pass_rate: rate,
});

const entrySchema = z.strictObject({
  path: z.string().min(1),
  name: z.string(),
  result: runResult,
  reason_code: z.string().min(1),
  exit_code: z.number().int(),
  duration_ms: count,
  run_folder: z.string().min(1).nullable(),
  problems: z.array(z.string()).optional(),
  trials: trialsSchema.optional(),
  verify: z
    .strictObject({ passed: z.boolean(), exit_code: z.number().int().nullable(), timed_out: z.boolean() })
    .nullable()
    .optional(),
});

const documentSchema = z.strictObject({
  schema_version: z.union([z.literal(1), z.literal(2)]),
  suite_id: z.string().min(1),
  started_at: z.string(),
  finished_at: z.string(),
  interrupted: z.boolean(),
  shard: z
    .strictObject({ index: z.number().int().positive(), total: z.number().int().positive() })
    .nullable(),
  entries: z.array(entrySchema),
});

/** The version a document with these entries is written as: 2 when any carries trials. */
export function suiteVersion(entries: readonly SuiteEntry[]): 1 | 2 {
  return entries.some((entry) => entry.trials !== undefined) ? 2 : 1;
}

/** Byte order of the UTF-8 encodings, the order suites sort paths in. */
export function compareByteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** The file text of a suite document: keys in documented order, two spaces, final newline. */
export function serializeSuite(document: SuiteDocument): string {
  const entries = document.entries.map((entry) => ({
    path: entry.path,
    name: entry.name,
    result: entry.result,
    reason_code: entry.reason_code,
    exit_code: entry.exit_code,
    duration_ms: entry.duration_ms,
    run_folder: entry.run_folder,
    ...(entry.problems === undefined ? {} : { problems: entry.problems }),
    ...(entry.trials === undefined
      ? {}
      : { trials: { ...summaryFields(entry.trials), min_pass_rate: entry.trials.min_pass_rate } }),
    ...(entry.verify === undefined ? {} : { verify: entry.verify }),
  }));
  const ordered = {
    schema_version: document.schema_version,
    suite_id: document.suite_id,
    started_at: document.started_at,
    finished_at: document.finished_at,
    interrupted: document.interrupted,
    shard: document.shard,
    entries,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** The largest suite.json read (16 MiB: about 50,000 entries). */
export const SUITE_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** Reads `<folder>/suite.json` strictly. Failures are `SuiteError`s with one-line messages. */
export async function readSuite(folder: string): Promise<SuiteDocument> {
  const path = join(folder, SUITE_FILE_NAME);
  let text: string;
  try {
    text = (await readRegularFile(path, SUITE_FILE_MAX_BYTES)).toString("utf8");
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    if (error.code === "FILE_NOT_FOUND") throw new SuiteError("SUITE_NOT_FOUND", "suite.json not found");
    throw new SuiteError("SUITE_UNREADABLE", `suite.json ${error.reason}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SuiteError("SUITE_INVALID", "suite.json is malformed JSON", { cause: error });
  }
  const parsed = documentSchema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join(".") ?? "";
    throw new SuiteError("SUITE_INVALID", `suite.json is invalid${where === "" ? "" : ` at ${where}`}`);
  }
  const document = parsed.data as SuiteDocument;
  if (document.schema_version !== suiteVersion(document.entries)) {
    throw new SuiteError(
      "SUITE_INVALID",
      `suite.json is invalid at schema_version (${document.schema_version === 1 ? "trials need version 2" : "version 2 without trials"})`,
    );
  }
  return document;
}
