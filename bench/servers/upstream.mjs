// The bench's upstream: a small JSON answer on any path, and `/sse`, a text/event-stream of
// SSE_EVENTS events, the first at once and then one every SSE_INTERVAL_MS.
import http from "node:http";
import { announce, onShutdown } from "../lib/child-lifecycle.mjs";
import { SSE_EVENTS, SSE_INTERVAL_MS } from "../lib/sse.mjs";

const JSON_BODY = JSON.stringify({ id: "123", name: "Ada Lovelace", tier: "gold", orders: [1, 2, 3] });

function streamEvents(res) {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  let sent = 0;
  const sendNext = () => {
    sent += 1;
    res.write(`id: ${sent}\ndata: {"token":"t${sent}"}\n\n`);
    if (sent === SSE_EVENTS) res.end();
    else timer = setTimeout(sendNext, SSE_INTERVAL_MS);
  };
  let timer = null;
  res.on("close", () => clearTimeout(timer));
  sendNext();
}

const server = http.createServer((req, res) => {
  req.resume();
  if (req.url === "/sse") return streamEvents(res);
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(JSON_BODY) });
  res.end(JSON_BODY);
});
server.keepAliveTimeout = 30_000;

server.listen(0, "127.0.0.1", () => announce(`http://127.0.0.1:${server.address().port}`));
onShutdown(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});
