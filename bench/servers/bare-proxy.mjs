// The reference proxy: `node:http` in, a keep-alive `node:http` Agent out, bodies piped both
// ways, nothing else. Usage: node bare-proxy.mjs --upstream http://127.0.0.1:PORT
import http from "node:http";
import { announce, flags, onShutdown } from "../lib/child-lifecycle.mjs";
import { trackMemoryPeaks } from "../lib/memory-peaks.mjs";
import { peakRssKb } from "../lib/peak-rss.mjs";

const upstream = new URL(flags().upstream);
const memoryPeaks = trackMemoryPeaks();
const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  const headers = { ...req.headers, host: upstream.host };
  const outgoing = http.request(
    { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
    (incoming) => {
      res.writeHead(incoming.statusCode ?? 502, incoming.headers);
      incoming.pipe(res);
    },
  );
  outgoing.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(outgoing);
});
server.keepAliveTimeout = 30_000;

server.listen(0, "127.0.0.1", () => announce(`http://127.0.0.1:${server.address().port}`));
onShutdown(async () => {
  agent.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  const report = { maxRssKb: peakRssKb(), memoryPeaksMb: memoryPeaks() };
  process.stdout.write(`${JSON.stringify(report)}\n`);
});
