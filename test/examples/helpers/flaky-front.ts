import http from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./programs.js";

/** How the front answers one of the first requests; later requests are forwarded. */
export type Failure = { status: number; headers?: Record<string, string> } | { drop: true };

export interface SeenRequest {
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FlakyFront {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A small server in front of the fake LLM: request k (from 0) gets `failures[k]` while there is
 * one, every later request is forwarded to `upstream` and its (buffered) answer returned.
 * It records what the SDK sent, so tests can see what a retry looks like.
 */
export async function startFlakyFront(upstream: string, failures: Failure[]): Promise<FlakyFront> {
  const seen: SeenRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const failure = failures[seen.length];
    seen.push({ at: performance.now(), path: req.url ?? "", headers: req.headers, body });
    if (failure !== undefined && "drop" in failure) {
      req.socket.destroy();
      return;
    }
    if (failure !== undefined) {
      res.writeHead(failure.status, { "Content-Type": "application/json", ...failure.headers });
      res.end('{"error":"scripted failure"}');
      return;
    }
    const answer = await fetch(`${upstream}${req.url}`, {
      method: req.method ?? "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    res.writeHead(answer.status, {
      "Content-Type": answer.headers.get("content-type") ?? "application/json",
    });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => closeServer(server) };
}
