import http from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./programs.js";

/** One scripted answer: a response (optionally delayed), a dropped connection, or no answer at all. */
export type Step =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { drop: true }
  | { hang: true };

export const CUSTOMER_BODY = '{"id":"123","name":"Ada Lovelace","tier":"gold"}';
export const OK: Step = { status: 200, body: CUSTOMER_BODY };

export interface ScriptedServer {
  url: string;
  /** Arrival time (ms, performance clock) and path of every request, in order. */
  requests: { path: string; at: number }[];
  close(): Promise<void>;
}

/** Answers request k with `steps[k]`, and with a plain 200 customer once the script is used up. */
export async function startScriptedServer(steps: Step[]): Promise<ScriptedServer> {
  const requests: ScriptedServer["requests"] = [];
  const server = http.createServer((req, res) => {
    const step = steps[requests.length] ?? OK;
    requests.push({ path: req.url ?? "", at: performance.now() });
    req.resume();
    if ("drop" in step) {
      req.socket.destroy();
      return;
    }
    if ("hang" in step) return; // the connection is ended when the server closes
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(step.status, { "Content-Type": "application/json", ...step.headers });
      res.end(step.body ?? '{"error":"scripted"}');
    };
    if (step.delayMs === undefined) answer();
    else setTimeout(answer, step.delayMs);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => closeServer(server) };
}

/** Milliseconds between request `k` and the one before it. */
export function gapBefore(server: ScriptedServer, k: number): number {
  const now = server.requests[k];
  const before = server.requests[k - 1];
  if (now === undefined || before === undefined) throw new Error(`no request pair at ${k}`);
  return now.at - before.at;
}
