/**
 * Writes `report.json` atomically (docs/reports.md): two-space JSON with a final newline, written to
 * `report.json.tmp`, flushed, then renamed over `report.json`. The schema-3 seed (a bigint) is
 * written as exact integer digits, never through a float and never quoted.
 */
import { open, rename, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { stringify } from "lossless-json";
import type { Report } from "./types.js";

export const REPORT_FILE_NAME = "report.json";

/** The file text of a report. */
export function serializeReport(report: Report): string {
  const text = stringify(report, undefined, 2);
  if (text === undefined) throw new TypeError("A report must serialize to a JSON object.");
  return `${text}\n`;
}

/** Writes the report into `runDir` and returns the absolute path of `report.json`. */
export async function writeReport(runDir: string, report: Report): Promise<string> {
  const reportPath = resolve(join(runDir, REPORT_FILE_NAME));
  const temporaryPath = `${reportPath}.tmp`;
  const file = await open(temporaryPath, "w");
  try {
    try {
      await file.writeFile(serializeReport(report), "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporaryPath, reportPath);
  } catch (error) {
    // A failed write (disk full) leaves no half-written file behind.
    await rm(temporaryPath, { force: true }).catch(() => undefined);
    throw error;
  }
  return reportPath;
}
