/**
 * Runs the built CLI core (`runCli`) in a worker thread, one command per message, with captured
 * streams. A test on the main thread can then race each command against a deadline even when
 * the command never yields (a runaway parse), and stop the worker.
 */
import { parentPort } from "node:worker_threads";
import { runCli } from "../../dist/cli/index.js";

parentPort.on("message", async ({ argv, cwd }) => {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (text) => (stdout += text) },
    stderr: { write: (text) => (stderr += text) },
    cwd,
    env: {},
  };
  const code = await runCli(argv, io);
  parentPort.postMessage({ code, stdout, stderr });
});
