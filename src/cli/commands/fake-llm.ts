import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { FAKE_LLM_USAGE, parseFakeLlmArgs } from "../../fake-llm/options.js";
import type { Script } from "../../fake-llm/script-schema.js";
import { createFakeLlmServer } from "../../fake-llm/server.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";

const HELP = `Usage: ${FAKE_LLM_USAGE}

A deterministic fake model API for scenarios: OpenAI Chat Completions (POST /v1/chat/completions),
the OpenAI Responses API (POST /v1/responses) and Anthropic Messages (POST /v1/messages), as JSON
or streamed, with tool calls; GET /health. The /v1 prefix is optional on every route.

Options:
  --port N             port to listen on; 0 (default) picks a free one
  --host HOST          address to listen on (default 127.0.0.1)
  --script FILE        YAML or JSON list of rules; without it every answer is "Echo: <last user message>"
  --token-delay-ms N   pause between two events of a streamed answer (default 0)

Prints "fake-llm listening on http://HOST:PORT" once ready; stops on SIGTERM or SIGINT.
`;

function hostInUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

async function readScript(path: string | null, io: CliIo): Promise<Script | null | number> {
  if (path === null) return null;
  // Loaded only for a script: YAML and the schema library are most of the command's start-up time.
  const { formatScriptError, loadScript, ScriptError } = await import("../../fake-llm/script.js");
  try {
    return await loadScript(resolve(io.cwd, path));
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    io.stderr.write(`fake-llm: invalid script ${formatScriptError(error, path)}\n`);
    return EXIT.USAGE;
  }
}

/** `agentchaos fake-llm`: serves until interrupted (SIGTERM, SIGINT), then exits 0. */
export async function fakeLlmCommand(args: readonly string[], io: CliIo): Promise<number> {
  const options = parseFakeLlmArgs(args);
  if (typeof options === "string") {
    io.stderr.write(`fake-llm: ${options} (usage: ${FAKE_LLM_USAGE})\n`);
    return EXIT.USAGE;
  }
  if (options.help) {
    io.stdout.write(HELP);
    return EXIT.OK;
  }
  const script = await readScript(options.script, io);
  if (typeof script === "number") return script;
  // Stopped while starting: nothing to serve, and the stop is as clean as after serving.
  if (io.interrupt?.aborted === true) return EXIT.OK;
  const server = createFakeLlmServer({
    script,
    tokenDelayMs: options.tokenDelayMs,
    log: (line) => io.stderr.write(`${line}\n`),
  });
  try {
    server.listen(options.port, options.host);
    await once(server, "listening");
  } catch (error) {
    const code = error instanceof Error ? (Reflect.get(error, "code") ?? error.name) : "Error";
    io.stderr.write(
      `fake-llm: cannot listen on ${hostInUrl(options.host)}:${options.port} (${String(code)})\n`,
    );
    return EXIT.SETUP;
  }
  const { port } = server.address() as AddressInfo;
  io.stdout.write(`fake-llm listening on http://${hostInUrl(options.host)}:${port}\n`);
  if (io.interrupt !== undefined && !io.interrupt.aborted) await once(io.interrupt, "abort");
  server.close();
  server.closeAllConnections();
  await once(server, "close");
  return EXIT.OK;
}
