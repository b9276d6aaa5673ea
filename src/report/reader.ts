/**
 * Reads one saved report strictly (docs/reports.md): a run folder means `<folder>/report.json`, any
 * other path is read as a report whatever its name. Opens nothing but that one file and never
 * writes. Failures are `ReportError`s with the stable codes of docs/reports.md.
 */
import { realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse } from "lossless-json";
import { FileReadError, readRegularFile } from "../support/regular-file.js";
import { invalidAt, ReportError } from "./errors.js";
import { REPORT_LIMITS } from "./limits.js";
import { parseReportShape } from "./parse-shape.js";
import { consistencyViolations } from "./rules/consistency.js";
import type { Report } from "./types.js";

/** The `ReportError` of a report file that cannot be read. */
function readError(error: unknown): ReportError {
  if (!(error instanceof FileReadError)) return ioError(error);
  switch (error.code) {
    case "FILE_NOT_FOUND":
      return new ReportError("REPORT_NOT_FOUND", { cause: error });
    case "FILE_NOT_REGULAR":
      return error.kind === "folder"
        ? new ReportError("REPORT_UNREADABLE")
        : new ReportError("REPORT_UNREADABLE", { reason: "It is not a regular file." });
    case "FILE_TOO_LARGE":
      return new ReportError("REPORT_UNREADABLE", { reason: "It is larger than the 16 MiB limit." });
    default:
      return new ReportError("REPORT_UNREADABLE", { cause: error });
  }
}

function ioError(error: unknown): ReportError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return new ReportError(code === "ENOENT" ? "REPORT_NOT_FOUND" : "REPORT_UNREADABLE", { cause: error });
}

/** The report file a target names: `report.json` inside a folder, else the path itself. */
async function reportFileOf(target: string): Promise<string> {
  try {
    return (await stat(target)).isDirectory() ? join(target, "report.json") : target;
  } catch (error) {
    throw ioError(error);
  }
}

/** Parses JSON keeping every number's text, so integers of any size and decimals stay exact. */
function parseJson(bytes: Uint8Array): unknown {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return parse(text);
  } catch (error) {
    throw new ReportError("REPORT_MALFORMED_JSON", { cause: error });
  }
}

/** Checks shapes and types (all schemas) and the consistency rules (schemas 2 and 3). */
export function validateReport(document: unknown): Report {
  const report = parseReportShape(document);
  if (report.schema_version !== 1) {
    const [first] = consistencyViolations(report);
    if (first !== undefined) throw invalidAt(first.keyPath);
  }
  return report;
}

/** Parses and validates the bytes of a report file (what `readReport` does once it has read them). */
export function reportOfBytes(bytes: Uint8Array): Report {
  return validateReport(parseJson(bytes));
}

/**
 * Reads and validates a report. `path` is resolved against the process working directory;
 * the returned `path` is the absolute, resolved path of the file that was read. Only a regular
 * file of at most 16 MiB is read (a FIFO, a device or a folder is unreadable, never opened for
 * a blocking read).
 */
export async function readReport(path: string): Promise<{ report: Report; path: string }> {
  const candidate = await reportFileOf(resolve(path));
  let reportPath: string;
  let bytes: Uint8Array;
  try {
    reportPath = await realpath(candidate);
    bytes = await readRegularFile(reportPath, REPORT_LIMITS.maxBytes);
  } catch (error) {
    throw readError(error);
  }
  return { report: reportOfBytes(bytes), path: reportPath };
}
