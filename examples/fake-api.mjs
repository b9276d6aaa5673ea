#!/usr/bin/env node
// A tiny, deterministic HTTP dependency for the bundled examples: GET /health, /customer/<id>,
// /orders/<id> and /weather/<city>, the ticket desk (/tickets) and an update feed (GET /events).
// Usage: node fake-api.mjs --port N [--host 127.0.0.1]   (--port 0 picks a free port)
// Prints one line `fake-api listening on http://<host>:<port>` once it accepts connections.
import http from "node:http";
import { parseArgs } from "node:util";

function usage(message) {
  process.stderr.write(`fake-api: ${message} (usage: node fake-api.mjs --port N [--host HOST])\n`);
  process.exit(2);
}

function readOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { port: { type: "string" }, host: { type: "string", default: "127.0.0.1" } },
      strict: true,
    }));
  } catch {
    usage("invalid arguments");
  }
  if (values.port === undefined) usage("--port is required");
  if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) usage("--port must be an integer 0-65535");
  return { port: Number(values.port), host: values.host };
}

function send(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** Returns the decoded single path segment after `prefix`, or undefined when the path does not fit. */
function idAfter(path, prefix) {
  if (!path.startsWith(prefix)) return undefined;
  const raw = path.slice(prefix.length);
  if (raw === "" || raw.includes("/")) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * The ticket desk, the one write endpoint: `POST /tickets` creates a ticket (201 `{"id":N}`),
 * `GET /tickets` counts them (`{"count":N}`). A request with an `Idempotency-Key` already seen
 * gets the same ticket again instead of a new one.
 */
const tickets = { count: 0, byKey: new Map() };

function ticketRoute(req, res) {
  if (req.method === "GET") return send(res, 200, `{"count":${tickets.count}}`);
  if (req.method !== "POST") return send(res, 404, '{"error":"not found"}');
  const key = req.headers["idempotency-key"];
  let id = typeof key === "string" ? tickets.byKey.get(key) : undefined;
  if (id === undefined) {
    tickets.count += 1;
    id = tickets.count;
    if (typeof key === "string") tickets.byKey.set(key, id);
  }
  send(res, 201, `{"id":${id}}`);
}

/**
 * The update feed, an optional listening stream: `GET /events` answers `text/event-stream` with one
 * `ready` event at once, then a `tick` event every 200 ms until the listener goes away.
 */
function eventsRoute(req, res) {
  if (req.method !== "GET") return send(res, 404, '{"error":"not found"}');
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  res.write('event: ready\ndata: {"listening":true}\n\n');
  let tick = 0;
  const timer = setInterval(() => {
    tick += 1;
    res.write(`event: tick\ndata: {"tick":${tick}}\n\n`);
  }, 200);
  res.on("close", () => clearInterval(timer));
}

function route(method, path) {
  if (method !== "GET") return undefined;
  if (path === "/health") return '{"status":"ok"}';
  const customer = idAfter(path, "/customer/");
  if (customer !== undefined) return `{"id":${JSON.stringify(customer)},"name":"Ada Lovelace","tier":"gold"}`;
  const order = idAfter(path, "/orders/");
  if (order !== undefined) return `{"id":${JSON.stringify(order)},"status":"ready","total":42.0}`;
  const city = idAfter(path, "/weather/");
  if (city !== undefined) return `{"city":${JSON.stringify(city)},"sky":"sunny","celsius":21}`;
  return undefined;
}

const { port, host } = readOptions();
const server = http.createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0];
  req.resume();
  if (path === "/tickets") return ticketRoute(req, res);
  if (path === "/events") return eventsRoute(req, res);
  const body = route(req.method, path);
  if (body === undefined) send(res, 404, '{"error":"not found"}');
  else send(res, 200, body);
});

server.on("error", (error) => {
  process.stderr.write(`fake-api: cannot listen (${error.code ?? error.name})\n`);
  process.exit(1);
});

server.listen(port, host, () => {
  const address = server.address();
  const shownHost = host.includes(":") ? `[${host}]` : host;
  process.stdout.write(`fake-api listening on http://${shownHost}:${address.port}\n`);
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
