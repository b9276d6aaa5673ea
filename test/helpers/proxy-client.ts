/** Small real HTTP clients for proxy tests. */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { Agent, request } from "undici";
import { onCleanup } from "./proxy-harness.js";

export interface ClientResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
}

let agent: Agent | null = null;

/** A keep-alive undici agent shared by one test, destroyed after it. */
function testAgent(): Agent {
  if (agent === null) {
    const created = new Agent();
    agent = created;
    onCleanup(async () => {
      agent = null;
      await created.destroy();
    });
  }
  return agent;
}

export async function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<ClientResponse> {
  const response = await request(url, {
    method: (options.method ?? "GET") as "GET",
    headers: options.headers ?? {},
    body: options.body ?? null,
    dispatcher: testAgent(),
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  return {
    status: response.statusCode,
    headers: response.headers as IncomingHttpHeaders,
    body,
    text: body.toString("utf8"),
  };
}

/** Sends with `node:http` (no keep-alive) and resolves with the response or the error the client saw. */
export function sendWithNodeHttp(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ response: ClientResponse } | { error: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: options.method ?? "GET",
      headers: options.headers ?? {},
      agent: false,
    });
    req.on("error", (error) => resolve({ error }));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", (error) => resolve({ error }));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({
          response: { status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8") },
        });
      });
    });
    req.end(options.body);
  });
}

/**
 * Writes a raw request on a fresh TCP connection; resolves with every byte received until the
 * connection closes (or until this side hangs up: `hangUp` milliseconds after writing, or once
 * the `hangUp` promise settles).
 */
export function rawExchange(
  proxyUrl: string,
  requestText: string,
  hangUp?: number | Promise<unknown>,
): Promise<{ bytes: Buffer; error: Error | null }> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: Error | null = null;
    const socket = connect(Number(port), hostname, () => {
      socket.write(requestText);
      if (typeof hangUp === "number") setTimeout(() => socket.destroy(), hangUp);
      else void hangUp?.finally(() => socket.destroy());
    });
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", (err) => {
      error = err;
    });
    socket.on("close", () => resolve({ bytes: Buffer.concat(chunks), error }));
  });
}
