import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { anthropicMessages } from "./anthropic-messages.js";
import type { LlmApi } from "./api.js";
import { embeddings } from "./embeddings.js";
import { errorAnswer } from "./error-answer.js";
import { modelList } from "./models.js";
import { openAiChat } from "./openai-chat.js";
import { openAiResponses } from "./openai-responses.js";
import { buildReply, echoAnswer, matchingRule } from "./reply.js";
import type { Script, ScriptAnswer } from "./script-schema.js";
import { writeEventStream } from "./sse.js";
import { isObject } from "./turn.js";

export interface FakeLlmConfig {
  /** The rules to answer with; null answers every request with `Echo: <last user message>`. */
  readonly script: Script | null;
  /** Pause between two events of a stream. */
  readonly tokenDelayMs: number;
  /** Receives one line per request no rule matched (it names the request, never its content). */
  readonly log?: (line: string) => void;
}

const BODY_LIMIT = 10 * 1024 * 1024;

/** The routes, without the optional `/v1` prefix: clients may put `/v1` in their base URL or not. */
const APIS: Readonly<Record<string, LlmApi>> = {
  "/chat/completions": openAiChat,
  "/responses": openAiResponses,
  "/messages": anthropicMessages,
};

function routeOf(path: string): string {
  return path.startsWith("/v1/") ? path.slice("/v1".length) : path;
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

/** The request body, or null when it exceeds the limit (the rest is drained, not kept). */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  }
  return size > BODY_LIMIT ? null : Buffer.concat(chunks);
}

function parseObject(body: Buffer): Readonly<Record<string, unknown>> | null {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The fake model as an HTTP server: OpenAI Chat Completions, the OpenAI Responses API and
 * Anthropic Messages, each as JSON or as a stream, plus `GET /health`. Answers depend only on
 * the request and on how many model requests came before it (the ids), never on chance or time.
 */
export function createFakeLlmServer(config: FakeLlmConfig): http.Server {
  let requests = 0;

  async function answerModelRequest(req: IncomingMessage, res: ServerResponse, api: LlmApi): Promise<void> {
    const body = await readBody(req);
    if (body === null) {
      return sendJson(res, 413, api.error("request_too_large", "request body exceeds 10 MiB"));
    }
    const request = parseObject(body);
    if (request === null) {
      return sendJson(res, 400, api.error("invalid_request_error", "request body must be a JSON object"));
    }
    const turn = api.readTurn(request);
    if (typeof turn === "string") return sendJson(res, 400, api.error("invalid_request_error", turn));
    const number = ++requests;
    const rule =
      config.script === null ? { answer: echoAnswer(turn) } : matchingRule(config.script, turn, number);
    if (rule === null) {
      config.log?.(`fake-llm: request ${number} (POST ${requestPath(req)}) matched no script rule`);
      const message = `no rule of the fake-llm script matches request ${number}`;
      return sendJson(res, 400, api.error("invalid_request_error", message));
    }
    if (rule.latency_ms !== undefined && rule.latency_ms > 0) await delay(rule.latency_ms);
    if (rule.error !== undefined) {
      const error = errorAnswer(rule.error);
      return sendJson(res, error.status, api.error(error.type, error.message), error.headers);
    }
    const reply = buildReply(turn, rule.answer as ScriptAnswer, number);
    if (turn.stream) return writeEventStream(res, api.stream(reply, request), config.tokenDelayMs);
    return sendJson(res, 200, api.complete(reply));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = requestPath(req);
    if (path === "/health" || path === "/v1/health") {
      req.resume();
      if (req.method === "GET" || req.method === "HEAD") return sendJson(res, 200, { status: "ok" });
      return sendJson(res, 405, errorBody("method not allowed"), { Allow: "GET, HEAD" });
    }
    const route = routeOf(path);
    if (route === "/models" || route.startsWith("/models/")) {
      req.resume();
      if (req.method !== "GET") return sendJson(res, 405, notAllowed("GET"), { Allow: "GET" });
      const list = modelList(route, req.headers["anthropic-version"] !== undefined);
      return list === null
        ? sendJson(res, 404, errorBody("model not found", "not_found_error"))
        : sendJson(res, 200, list);
    }
    if (route === "/embeddings") {
      if (req.method !== "POST") {
        req.resume();
        return sendJson(res, 405, notAllowed("POST"), { Allow: "POST" });
      }
      const body = await readBody(req);
      if (body === null) return sendJson(res, 413, errorBody("request body exceeds 10 MiB"));
      const request = parseObject(body);
      const answer = request === null ? "request body must be a JSON object" : embeddings(request);
      if (typeof answer === "string")
        return sendJson(res, 400, openAiChat.error("invalid_request_error", answer));
      return sendJson(res, 200, answer);
    }
    const api = APIS[route];
    if (api === undefined) {
      req.resume();
      return sendJson(res, 404, errorBody("not found", "not_found_error"));
    }
    if (req.method !== "POST") {
      req.resume();
      return sendJson(res, 405, api.error("invalid_request_error", "method not allowed; use POST"), {
        Allow: "POST",
      });
    }
    return answerModelRequest(req, res, api);
  }

  return http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, errorBody("internal error", "api_error"));
      else res.destroy();
    });
  });
}

/** The error body of the answers that are not a model's (no provider's own shape). */
function errorBody(message: string, type = "invalid_request_error"): unknown {
  return { error: { message, type } };
}

function notAllowed(method: string): unknown {
  return errorBody(`method not allowed; use ${method}`);
}

function requestPath(req: IncomingMessage): string {
  return (req.url ?? "/").split("?")[0] ?? "/";
}
