/**
 * The cassette dialect of a `protocol: mcp` dependency (docs/replay.md, MCP over Streamable
 * HTTP). A POSTed JSON-RPC request is keyed by its `method`, its target name and the hash of its
 * canonical `params` without `_meta` (the MCP identity); its shape is taken from `params`. The
 * recorded answer gets the live request's id, and a replayed `initialize` answer a fresh
 * `Mcp-Session-Id` (the recorded one is never stored). Everything else is no conversation to
 * replay: notifications and responses the agent POSTs are accepted (`202`), and the server's
 * stream (`GET`) and session end (`DELETE`) are answered `405`, which clients take as "not
 * offered".
 */
import { randomUUID } from "node:crypto";
import type { CassetteDialect } from "../../proxy/cassette-dialect.js";
import type { Interaction } from "../../replay/cassette.js";
import { cassetteRequestOf } from "../cassette-request.js";
import { classifyMessage } from "../json-rpc.js";
import { eventWithAnswerId, withAnswerId } from "../replay-answers.js";

function localAnswer(status: number): Interaction {
  return {
    method: "",
    path: "",
    query_hash: "",
    body_hash: "",
    request_shape: {},
    status,
    headers: {},
  };
}

/** The recorded answer with the live id (and a fresh session for `initialize`). */
function liveAnswer(interaction: Interaction, rawId: string, initialize: boolean): Interaction {
  const headers = initialize
    ? { ...interaction.headers, "mcp-session-id": randomUUID() }
    : interaction.headers;
  if (interaction.events !== undefined)
    return {
      ...interaction,
      headers,
      events: interaction.events.map((event) => ({ ...event, text: eventWithAnswerId(event.text, rawId) })),
    };
  if (interaction.body !== undefined)
    return { ...interaction, headers, body: withAnswerId(interaction.body, rawId) };
  return { ...interaction, headers };
}

export const mcpHttpDialect: CassetteDialect = {
  shapeIgnore: [],
  keyOf(method, _target, body) {
    if (method !== "POST" || body === null) return null;
    const message = classifyMessage(body.toString("utf8"));
    if (message.kind !== "request") return null;
    const { rawId } = message;
    const { key, shape } = cassetteRequestOf(message.method, message.params);
    return {
      key,
      shapeBody: shape,
      answer: (interaction) => liveAnswer(interaction, rawId, message.method === "initialize"),
    };
  },
  localAnswer: (method) => localAnswer(method === "POST" ? 202 : 405),
};
