/**
 * `agentchaos merge` (docs/suites.md): shard outputs into one suite in DIR. Reads the shards, never
 * modifies them; a scenario present twice, a shard index given twice or shards of different
 * totals are errors (exit 2), before anything is written — except a scenario run with trials in
 * several shards, whose trials are combined (merge-trials.ts).
 */
import { resolve } from "node:path";
import {
  compareByteOrder,
  readSuite,
  SUITE_FILE_NAME,
  type SuiteDocument,
  type SuiteEntry,
  serializeSuite,
  suiteVersion,
} from "../report/suite-document.js";
import { SuiteError } from "../report/suite-errors.js";
import type { ReporterName } from "../reporters/names.js";
import { writeSuiteReporters } from "../reporters/suite-files.js";
import { errnoCode, makeFolders } from "../runtime/run-folder.js";
import { makeRunId } from "../runtime/run-id.js";
import { writeFileAtomically } from "../support/write-file.js";
import { combineTrialEntries, relocateEntry } from "./merge-trials.js";

const MERGE_REPORTERS: readonly ReporterName[] = ["junit", "ctrf", "html"];

export interface MergeDone {
  readonly document: SuiteDocument;
  readonly written: readonly string[];
}

/** Merges the suites in `folders` (as given, for messages) into `outputDir`; paths resolve against `cwd`. */
export async function mergeSuites(
  folders: readonly string[],
  outputDir: string,
  cwd: string,
): Promise<MergeDone> {
  const target = resolve(cwd, outputDir);
  const shards: { folder: string; absolute: string; document: SuiteDocument }[] = [];
  for (const folder of folders) {
    const absolute = resolve(cwd, folder);
    if (absolute === target) {
      throw new SuiteError(
        "SUITE_BAD_OPTION",
        `--output-dir must not be one of the merged folders (${folder})`,
      );
    }
    try {
      shards.push({ folder, absolute, document: await readSuite(absolute) });
    } catch (error) {
      if (error instanceof SuiteError) throw new SuiteError(error.code, `${folder}: ${error.message}`);
      throw error;
    }
  }
  const seenShards = new Map<number, string>();
  let total: number | null = null;
  for (const { folder, document } of shards) {
    if (document.shard === null) continue;
    if (total !== null && document.shard.total !== total) {
      throw new SuiteError(
        "MERGE_SHARD_MISMATCH",
        `${folder} is shard ${document.shard.index}/${document.shard.total}, others are of ${total}`,
      );
    }
    total = document.shard.total;
    const other = seenShards.get(document.shard.index);
    if (other !== undefined) {
      throw new SuiteError(
        "MERGE_DUPLICATE_SHARD",
        `${other} and ${folder} are both shard ${document.shard.index}/${total}`,
      );
    }
    seenShards.set(document.shard.index, folder);
  }
  const owner = new Map<string, string>();
  const byPath = new Map<string, SuiteEntry>();
  for (const { folder, absolute, document } of shards) {
    for (const found of document.entries) {
      const entry = relocateEntry(found, absolute, target);
      const other = owner.get(entry.path);
      const earlier = byPath.get(entry.path);
      if (other !== undefined && earlier !== undefined) {
        byPath.set(entry.path, combineTrialEntries(earlier, entry, `${other} and ${folder}`));
        continue;
      }
      owner.set(entry.path, folder);
      byPath.set(entry.path, entry);
    }
  }
  const entries = [...byPath.values()];
  const starts = shards.map((shard) => shard.document.started_at).sort();
  const ends = shards.map((shard) => shard.document.finished_at).sort();
  const document: SuiteDocument = {
    schema_version: suiteVersion(entries),
    suite_id: makeRunId(),
    started_at: starts[0] ?? "",
    finished_at: ends.at(-1) ?? "",
    interrupted: shards.some((shard) => shard.document.interrupted),
    shard: null,
    entries: entries.sort((a, b) => compareByteOrder(a.path, b.path)),
  };
  try {
    await makeFolders(target);
  } catch (error) {
    throw new SuiteError("SUITE_OUTPUT_FAILED", `cannot create output folder (${errnoCode(error)})`, {
      cause: error,
    });
  }
  const written = [await writeFileAtomically(target, SUITE_FILE_NAME, serializeSuite(document))];
  written.push(...(await writeSuiteReporters(target, document, MERGE_REPORTERS)));
  return { document, written };
}
