import { SuiteError } from "../../report/suite-errors.js";
import { mergeSuites } from "../../suite/merge.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { OutputWriteError } from "../../support/write-file.js";
import type { ParsedArgs } from "../args.js";
import { usageError } from "../usage.js";

/** `agentchaos merge <suite-folder>... --output-dir DIR`: exits 0 once merged, whatever the results. */
export async function mergeCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const outputDir = args.values["output-dir"];
  if (typeof outputDir !== "string") return usageError(io, "'merge' needs --output-dir DIR");
  try {
    const { document, written } = await mergeSuites(args.positionals, outputDir, io.cwd);
    io.stdout.write(
      `Merged ${args.positionals.length} ${args.positionals.length === 1 ? "suite" : "suites"}: ${document.entries.length} scenarios.\n\nWritten:\n${written.join("\n")}\n`,
    );
    return EXIT.OK;
  } catch (error) {
    if (error instanceof SuiteError) {
      io.stderr.write(`Cannot merge: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof OutputWriteError) {
      io.stderr.write(`Cannot merge: ${error.message}\n`);
      return EXIT.SETUP;
    }
    throw error;
  }
}
