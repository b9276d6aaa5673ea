// How the example agents reach the notes server, exactly as a real agent would be configured:
// - under Agent Chaos with an mcp_stdio dependency `notes`: spawn AGENTCHAOS_NOTES_COMMAND with
//   the JSON array AGENTCHAOS_NOTES_ARGS (the shim, which spawns the real server);
// - under Agent Chaos with a `protocol: mcp` http dependency `notes`: AGENTCHAOS_NOTES_URL + /mcp;
// - on their own: spawn notes-server.mjs directly.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function transport() {
  const {
    AGENTCHAOS_NOTES_COMMAND: command,
    AGENTCHAOS_NOTES_ARGS: args,
    AGENTCHAOS_NOTES_URL: url,
  } = process.env;
  if (command) return new StdioClientTransport({ command, args: JSON.parse(args ?? "[]") });
  if (url) return new StreamableHTTPClientTransport(new URL(`${url.replace(/\/+$/, "")}/mcp`));
  const server = fileURLToPath(new URL("./notes-server.mjs", import.meta.url));
  return new StdioClientTransport({ command: process.execPath, args: [server] });
}

/** A connected client; `onClose` runs when its transport closes. */
export async function connectNotes(name, onClose = () => {}) {
  const client = new Client({ name, version: "1.0.0" });
  client.onclose = onClose;
  await client.connect(transport());
  return client;
}

/** The text of a tool result. */
export function resultText(result) {
  return result.content?.find((item) => item.type === "text")?.text ?? "";
}
