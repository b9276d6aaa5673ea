#!/usr/bin/env node
// A tiny shop for the truth examples: GET /health, GET /items/<sku> (one item with its price),
// GET /catalog (every item's price, the shop's second source), POST /orders (an order, 201) and
// GET /orders (how many orders it holds). Usage: node shop-server.mjs --port N.
import http from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { port: { type: "string" } } });
const port = Number(values.port ?? "0");
const items = new Map([["lamp", { sku: "lamp", name: "Desk lamp", price: 19.99 }]]);
let orders = 0;

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0];
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    if (path === "/health") return send(res, 200, { status: "ok" });
    if (req.method === "GET" && path.startsWith("/items/")) {
      const item = items.get(decodeURIComponent(path.slice("/items/".length)));
      return item === undefined ? send(res, 404, { error: "no such item" }) : send(res, 200, item);
    }
    if (req.method === "GET" && path === "/catalog")
      return send(res, 200, { items: [...items.values()].map(({ sku, price }) => ({ sku, price })) });
    if (req.method === "POST" && path === "/orders") {
      orders += 1;
      return send(res, 201, { id: orders });
    }
    if (req.method === "GET" && path === "/orders") return send(res, 200, { count: orders });
    return send(res, 404, { error: "not found" });
  });
});
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
