import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { ResponseRelay } from "../faults/types.js";

/** One request as it goes upstream. */
export interface UpstreamRequest {
  readonly method: string;
  /** The raw request target: path plus `?query` when there is one. */
  readonly target: string;
  /** Flat name/value list, already filtered for hop-by-hop headers. */
  readonly headers: string[];
  readonly body: Buffer | null;
}

/**
 * The upstream of one proxy: a keep-alive `node:http(s)` agent to `base_url`'s origin. It
 * never follows redirects, ignores `HTTP_PROXY` and friends (Node's HTTP client reads no proxy
 * variables) and verifies TLS as usual. User information in `base_url` becomes HTTP Basic
 * credentials on requests that carry no `Authorization` of their own.
 */
export class Upstream {
  readonly #agent: HttpAgent;
  readonly #request: typeof httpRequest;
  readonly #hostname: string;
  readonly #port: number | undefined;
  readonly #prefix: string;
  readonly #authorization: string | null;

  /** Throws a `TypeError` when `baseUrl` is not an absolute http(s) URL. */
  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("unsupported scheme");
    const secure = url.protocol === "https:";
    const options = { keepAlive: true, scheduling: "lifo" as const };
    this.#agent = secure ? new HttpsAgent(options) : new HttpAgent(options);
    this.#request = secure ? httpsRequest : httpRequest;
    this.#hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    this.#port = url.port === "" ? undefined : Number(url.port);
    this.#prefix = url.pathname.replace(/\/+$/, "");
    this.#authorization =
      url.username === "" && url.password === ""
        ? null
        : `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
  }

  /** Sends `request`; the response (or the transport failure) goes to `relay`, once. Never throws. */
  send(request: UpstreamRequest, relay: ResponseRelay): void {
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      relay.error(error);
    };
    try {
      const outgoing = this.#request(
        {
          agent: this.#agent,
          hostname: this.#hostname,
          ...(this.#port === undefined ? {} : { port: this.#port }),
          method: request.method,
          path: this.#prefix + request.target,
          headers: this.#headers(request),
        },
        (response) =>
          relayResponse(
            response,
            relay,
            () => outgoing.destroy(),
            fail,
            () => {
              settled = true;
            },
          ),
      );
      outgoing.on("error", fail);
      outgoing.end(request.body !== null && request.body.length > 0 ? request.body : undefined);
    } catch (error) {
      fail(error instanceof Error ? error : new Error("dispatch failed"));
    }
  }

  /** Ends every upstream connection at once (requests in flight fail). */
  async close(): Promise<void> {
    this.#agent.destroy();
  }

  /** The flat list as an object (duplicates merged case-insensitively), credentials and framing added. */
  #headers(request: UpstreamRequest): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    const spelling = new Map<string, string>();
    let hasAuthorization = false;
    const list = request.headers;
    for (let i = 0; i + 1 < list.length; i += 2) {
      const name = list[i] as string;
      const value = list[i + 1] as string;
      const lower = name.toLowerCase();
      if (lower === "authorization") hasAuthorization = true;
      const key = spelling.get(lower);
      if (key === undefined) {
        spelling.set(lower, name);
        headers[name] = value;
      } else {
        const previous = headers[key];
        headers[key] = Array.isArray(previous) ? [...previous, value] : [String(previous), value];
      }
    }
    if (this.#authorization !== null && !hasAuthorization) headers.authorization = this.#authorization;
    if (request.body !== null && request.body.length > 0) headers["content-length"] = request.body.length;
    return headers;
  }
}

/** Streams one upstream response into `relay`: start, data…, then end — or error if it breaks midway. */
function relayResponse(
  response: IncomingMessage,
  relay: ResponseRelay,
  abort: () => void,
  fail: (error: Error) => void,
  finished: () => void,
): void {
  relay.start(response.statusCode ?? 502, response.headers, {
    pause: () => response.pause(),
    resume: () => response.resume(),
    abort,
  });
  response.on("data", (chunk: Buffer) => relay.data(chunk));
  response.on("error", fail);
  response.on("close", () => {
    if (!response.complete) fail(new Error("upstream response ended early"));
  });
  response.on("end", () => {
    finished();
    relay.end();
  });
}
