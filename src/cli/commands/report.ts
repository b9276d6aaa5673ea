import { stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { ReportError } from "../../report/errors.js";
import { readSuite, SUITE_FILE_NAME, serializeSuite } from "../../report/suite-document.js";
import { SuiteError } from "../../report/suite-errors.js";
import { loadSuiteView } from "../../reporters/entry-details.js";
import { renderRunFormat } from "../../reporters/run-files.js";
import { readSavedReport, SavedRunError } from "../../reporters/saved-run.js";
import { renderSuiteFormat } from "../../reporters/suite-files.js";
import { errnoCode, makeFolders } from "../../runtime/run-folder.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { slashRelative } from "../../support/slash-path.js";
import { OutputWriteError, writeFileAtomically } from "../../support/write-file.js";
import type { ParsedArgs } from "../args.js";
import { usageError } from "../usage.js";

const FORMATS = ["html", "junit", "ctrf", "json"] as const;
type Format = (typeof FORMATS)[number];

/** Whether something is at `path` (looked at, never opened). */
async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    return (
      (error as NodeJS.ErrnoException).code !== "ENOENT" &&
      (error as NodeJS.ErrnoException).code !== "ENOTDIR"
    );
  }
}

/** The rendered text of a run or suite folder in one format. */
async function render(folder: string, format: Format, outputFolder: string | null): Promise<string> {
  if (await exists(join(folder, SUITE_FILE_NAME))) {
    const document = await readSuite(folder);
    if (format === "json") return serializeSuite(document);
    const prefix = outputFolder === null ? "" : slashRelative(outputFolder, folder);
    return renderSuiteFormat(await loadSuiteView(folder, document, prefix), format);
  }
  const saved = await readSavedReport(folder);
  if (format === "json") return saved.bytes.toString("utf8");
  return renderRunFormat(folder, format, saved);
}

/**
 * `agentchaos report <run-folder | suite-folder> --format F [--output PATH]`: renders a saved
 * run or suite again, to stdout or PATH. Reads the folder, never modifies it.
 */
export async function reportCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const format = args.values.format;
  if (typeof format !== "string") return usageError(io, "'report' needs --format html, junit, ctrf or json");
  if (!(FORMATS as readonly string[]).includes(format)) {
    return usageError(io, `unknown format '${format}' (expected html, junit, ctrf or json)`);
  }
  const given = args.positionals[0] as string;
  const target = resolve(io.cwd, given);
  const folder =
    basename(target) === "report.json" || basename(target) === SUITE_FILE_NAME ? dirname(target) : target;
  const output = typeof args.values.output === "string" ? resolve(io.cwd, args.values.output) : null;
  try {
    const text = await render(folder, format as Format, output === null ? null : dirname(output));
    if (output === null) io.stdout.write(text);
    else {
      await makeFolders(dirname(output)).catch((error: unknown) => {
        throw new OutputWriteError(`cannot create folder for ${basename(output)} (${errnoCode(error)})`);
      });
      const path = await writeFileAtomically(dirname(output), basename(output), text);
      io.stdout.write(`Written:\n${path}\n`);
    }
    return EXIT.OK;
  } catch (error) {
    if (error instanceof SavedRunError || error instanceof SuiteError || error instanceof ReportError) {
      io.stderr.write(`Cannot render report: ${given}: ${error.message}\n`);
      return EXIT.USAGE;
    }
    if (error instanceof OutputWriteError) {
      io.stderr.write(`Cannot render report: ${error.message}\n`);
      return EXIT.SETUP;
    }
    throw error;
  }
}
