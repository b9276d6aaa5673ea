#!/usr/bin/env node
// A deterministic local stand-in for an LLM API (no network, no keys), for the LLM examples.
// Speaks the public shapes of OpenAI Chat Completions (POST /v1/chat/completions) and
// Anthropic Messages (POST /v1/messages), plain JSON or streamed as server-sent events.
// The answer is always `Echo: <last user message>`; streams arrive in several chunks.
// Usage: node server.mjs --port N [--host 127.0.0.1] [--chunk-delay-ms 25]   (--port 0 picks a port)
import { createHash } from "node:crypto";
import http from "node:http";
import { parseArgs } from "node:util";
import { anthropicMessage, anthropicStreamEvents } from "./anthropic.mjs";
import { openAiChunks, openAiCompletion } from "./openai.mjs";

const BODY_LIMIT = 1024 * 1024;

function usage(message) {
  process.stderr.write(`fake-llm: ${message} (usage: node server.mjs --port N [--host HOST])\n`);
  process.exit(2);
}

function readOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string" },
        host: { type: "string", default: "127.0.0.1" },
        "chunk-delay-ms": { type: "string", default: "25" },
      },
      strict: true,
    }));
  } catch {
    usage("invalid arguments");
  }
  if (values.port === undefined) usage("--port is required");
  if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) usage("--port must be an integer 0-65535");
  if (!/^\d+$/.test(values["chunk-delay-ms"])) usage("--chunk-delay-ms must be an integer");
  return { port: Number(values.port), host: values.host, chunkDelayMs: Number(values["chunk-delay-ms"]) };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function sendJson(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > BODY_LIMIT) reject(new Error("body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Text of the last user message; content may be a string or a list of typed parts. */
function lastUserText(messages) {
  const user = Array.isArray(messages) ? messages.filter((m) => m?.role === "user").at(-1) : undefined;
  if (typeof user?.content === "string") return user.content;
  if (Array.isArray(user?.content)) {
    return user.content
      .filter((part) => part?.type === "text" && typeof part.text === "string")
      .map((part) => part.text)
      .join(" ");
  }
  return "";
}

/** Splits the answer into word-sized pieces that join back to exactly the answer. */
function pieces(text) {
  return text.match(/\S+\s*|\s+/g) ?? [""];
}

function wordCount(text) {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Everything both API shapes need, derived only from the request body (deterministic). */
function answerFor(raw, request) {
  const question = lastUserText(request.messages);
  const text = `Echo: ${question}`;
  return {
    digest: createHash("sha256").update(raw).digest("hex").slice(0, 24),
    model: typeof request.model === "string" ? request.model : "fake-model",
    text,
    pieces: pieces(text),
    inputTokens: wordCount(question),
    outputTokens: wordCount(text),
  };
}

async function streamEvents(res, events, chunkDelayMs) {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  for (const [index, event] of events.entries()) {
    if (index > 0 && chunkDelayMs > 0) await sleep(chunkDelayMs);
    if (res.destroyed) return;
    res.write(event);
  }
  res.end();
}

const APIS = {
  "/v1/chat/completions": {
    invalid: (message) => ({ error: { message, type: "invalid_request_error", param: null, code: null } }),
    complete: openAiCompletion,
    stream: openAiChunks,
  },
  "/v1/messages": {
    invalid: (message) => ({ type: "error", error: { type: "invalid_request_error", message } }),
    complete: anthropicMessage,
    stream: anthropicStreamEvents,
  },
};

async function handle(req, res, options) {
  const path = (req.url ?? "/").split("?")[0];
  if (req.method === "GET" && path === "/health") return sendJson(res, 200, { status: "ok" });
  const api = APIS[path];
  if (api === undefined || req.method !== "POST") {
    req.resume();
    return sendJson(res, 404, { error: { message: "not found", type: "not_found_error" } });
  }
  let raw;
  let request;
  try {
    raw = await readBody(req);
    request = JSON.parse(raw.toString("utf8"));
  } catch {
    return sendJson(res, 400, api.invalid("request body must be a JSON object"));
  }
  if (request === null || typeof request !== "object" || !Array.isArray(request.messages)) {
    return sendJson(res, 400, api.invalid("messages must be a list"));
  }
  const answer = answerFor(raw, request);
  if (request.stream === true) return streamEvents(res, api.stream(answer, request), options.chunkDelayMs);
  return sendJson(res, 200, api.complete(answer));
}

const options = readOptions();
const server = http.createServer((req, res) => {
  handle(req, res, options).catch(() => {
    if (!res.headersSent) sendJson(res, 500, { error: { message: "internal error", type: "api_error" } });
    else res.destroy();
  });
});

server.on("error", (error) => {
  process.stderr.write(`fake-llm: cannot listen (${error.code ?? error.name})\n`);
  process.exit(1);
});

server.listen(options.port, options.host, () => {
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  process.stdout.write(`fake-llm listening on http://${shownHost}:${server.address().port}\n`);
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
