// The HTTP upstream of the relay measurements. POST (an MCP `tools/call` `download`): the
// JSON-RPC response as one `text/event-stream` event of about `arguments.bytes` bytes; POST
// `upload`: a small JSON answer with the body's size. GET /sse?bytes=N: one event of N bytes.
import http from "node:http";
import { payload } from "../lib/big-message.mjs";
import { announce, onShutdown } from "../lib/child-lifecycle.mjs";

function sendEvent(response, parts) {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  response.write("event: message\ndata: ");
  for (const part of parts) response.write(part);
  response.end("\n\n");
}

const server = http.createServer((request, response) => {
  const chunks = [];
  let size = 0;
  request.on("data", (chunk) => {
    chunks.push(chunk);
    size += chunk.length;
  });
  request.on("end", () => {
    if (request.method === "GET") {
      const bytes = Number(new URL(request.url, "http://x").searchParams.get("bytes"));
      sendEvent(response, [payload(bytes)]);
      return;
    }
    const message = JSON.parse(Buffer.concat(chunks, size).toString("utf8"));
    const id = JSON.stringify(message.id);
    if (message.params.name === "upload") {
      const body = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${size}"}]}}`;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(body);
      return;
    }
    sendEvent(response, [
      `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`,
      payload(message.params.arguments.bytes),
      '"}]}}',
    ]);
  });
});
server.listen(0, "127.0.0.1", () => announce(`http://127.0.0.1:${server.address().port}`));
onShutdown(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});
