import { STATUS_CODES } from "node:http";
import { httpDate } from "../http-date.js";
import type { RequestHead, ResponseHead } from "./heads.js";
import type { UpstreamTarget } from "./upstream-link.js";

/** Methods whose request always carries a length, 0 included (as undici sends them). */
const EXPECTS_BODY = new Set(["POST", "PUT", "PATCH"]);

/**
 * The request as it goes upstream: the target under `base_url`'s path, `Host` of the upstream,
 * the client's headers in order and spelling without the hop-by-hop set, `Host`,
 * `Content-Length` and the names its `Connection` lists, credentials from `base_url` when the
 * request has none, and its own length (latin1 text: every byte as received). The same header
 * set the full pipeline sends.
 */
export function upstreamRequestHead(target: UpstreamTarget, head: RequestHead, body: Buffer | null): string {
  // As undici does for the full pipeline: the connection of a HEAD closes after it (an upstream
  // may send a body it should not have, and the connection could not be trusted after it).
  const connection = head.method === "HEAD" ? "close" : "keep-alive";
  let text = `${head.method} ${target.prefix}${head.target} HTTP/1.1\r\nhost: ${target.hostHeader}\r\nconnection: ${connection}\r\n`;
  text += head.forwarded;
  if (target.authorization !== null && !head.hasAuthorization)
    text += `authorization: ${target.authorization}\r\n`;
  if (body !== null || EXPECTS_BODY.has(head.method)) text += `content-length: ${body?.length ?? 0}\r\n`;
  return `${text}\r\n`;
}

/** How the workload's response is framed. */
export type Framing = { readonly length: number } | "chunked" | "none";

/**
 * The head of a response to the workload: the upstream's status with Node's reason phrase,
 * the upstream's headers without the hop-by-hop set, its length and the names its
 * `Connection` lists, then the lane's own framing, date (when the upstream sent none) and
 * connection headers.
 */
export function clientResponseHead(head: ResponseHead, framing: Framing, keepAlive: boolean): string {
  return `HTTP/1.1 ${head.status} ${STATUS_CODES[head.status] ?? "unknown"}\r\n${head.relayed}${framingHeaders(framing, keepAlive, head.dated)}`;
}

function framingHeaders(framing: Framing, keepAlive: boolean, dated: boolean): string {
  let connection = keepAlive ? "connection: keep-alive\r\n" : "connection: close\r\n";
  if (!dated) connection = `date: ${httpDate()}\r\n${connection}`;
  if (framing === "none") return `${connection}\r\n`;
  if (framing === "chunked") return `transfer-encoding: chunked\r\n${connection}\r\n`;
  return `content-length: ${framing.length}\r\n${connection}\r\n`;
}

/** One chunk of chunked transfer coding around `piece`. */
export function chunkBytes(piece: Buffer): Buffer[] {
  return [Buffer.from(`${piece.length.toString(16)}\r\n`, "latin1"), piece, CRLF];
}

const CRLF = Buffer.from("\r\n", "latin1");
export const LAST_CHUNK = Buffer.from("0\r\n\r\n", "latin1");
