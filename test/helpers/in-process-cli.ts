import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { runCli } from "../../src/cli/index.js";
import type { loadRunModules } from "../../src/runtime/run-modules.js";
import { capturedIo } from "./captured-io.js";
import { type CliResult, ROOT } from "./cli.js";
import { fixedPortsOfCall, lockPorts } from "./port-lock.js";

const DIST = join(ROOT, "dist");

/**
 * Node's own `import()`, not the test runner's: the built CLI is loaded as the executable loads it
 * (plain JavaScript from dist/, no transform), once per test file.
 */
const nativeImport = createRequire(import.meta.url)("./native-import.cjs") as (
  url: string,
) => Promise<unknown>;

function builtModule<T>(path: string): Promise<T> {
  return nativeImport(pathToFileURL(join(DIST, path)).href) as Promise<T>;
}

let cli: Promise<{ runCli: typeof runCli }> | undefined;
let runCode: Promise<unknown> | undefined;

/**
 * Loads what a run imports on its way, once per test file, before its first run: the executable
 * has its code at hand by then, but here a module's first load takes the test process's time,
 * and a run that paid it while its dependencies start would see its own deadlines come sooner.
 */
function loadRunCode(): Promise<unknown> {
  runCode ??= Promise.all([
    builtModule("cli/commands/run.js"),
    builtModule("runtime/experiment.js"),
    builtModule<{ loadRunModules: typeof loadRunModules }>("runtime/run-modules.js").then((modules) =>
      modules.loadRunModules(true),
    ),
  ]);
  return runCode;
}

/**
 * Runs a command of the built CLI in this process, with captured streams, and answers in the
 * shape `runBuiltCli` does: for tests about what a command writes and prints rather than about
 * the executable, it spares each call a Node start and the loading of the whole CLI. A `run` of a
 * scenario with fixed ports holds those ports' locks first, as `runBuiltCli` does.
 */
export async function runCliHere(args: readonly string[], cwd: string = ROOT): Promise<CliResult> {
  cli ??= builtModule("cli/index.js");
  const { runCli: run } = await cli;
  if (args[0] === "run") await loadRunCode();
  const ports = fixedPortsOfCall(args, cwd);
  const release = ports.length > 0 ? await lockPorts(ports) : null;
  const { io, text } = capturedIo(cwd);
  try {
    const code = await run(args, io);
    return { code, signal: null, ...text() };
  } finally {
    await release?.();
  }
}
