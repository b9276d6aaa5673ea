/**
 * What the recording upstream (cassette-recorder.ts) reads of a request the proxy forwarded: its
 * method, target, forwarded headers and body (its key is the cassette dialect's to make).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { upstreamRequestHeaders } from "../support/http-headers.js";
import { type RequestBody, readBody } from "./body.js";
import { type RequestTarget, splitTarget } from "./request-target.js";

export interface CassetteRequest {
  readonly method: string;
  readonly target: RequestTarget;
  /** Request headers to forward upstream (hop-by-hop, host and length dropped). */
  readonly headers: string[];
  readonly body: RequestBody;
}

export function readCassetteRequest(request: IncomingMessage, done: (read: CassetteRequest) => void): void {
  const method = (request.method ?? "GET").toUpperCase();
  const target = splitTarget(request.url ?? "/");
  readBody(request, (body) =>
    done({ method, target, headers: upstreamRequestHeaders(request.rawHeaders), body }),
  );
}

/** A loopback server standing in for a dependency's upstream. */
export interface LoopbackUpstream {
  /** `http://127.0.0.1:<port>`: the proxy's upstream base URL. */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (an OS-chosen port); `close` ends open connections too. */
export async function listenLoopback(
  server: Server<typeof IncomingMessage, typeof ServerResponse>,
  onClose: () => Promise<void> = async () => undefined,
): Promise<LoopbackUpstream> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await onClose();
      })();
      return closing;
    },
  };
}
