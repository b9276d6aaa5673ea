// The small HTTP client of the bundled plain agents, on `node:http`. Node's built-in `fetch`
// loads and compiles its whole client on a process's first request, which costs more CPU than
// the rest of such an agent; these agents start once per run (many times in a suite, trials or
// explore), so they use Node's HTTP module directly (docs/examples.md#the-agents-http-client).
// Connections are kept alive between requests, as `fetch` keeps them.
import http from "node:http";

/** The error a request ends with when its time limit passes first; `name` says so. */
export class RequestTimeout extends Error {
  constructor() {
    super("the request took longer than its time limit");
    this.name = "TimeoutError";
  }
}

/** A response whose body is read: status, a header by name, the body as text and as JSON. */
function reply(response, text) {
  const status = response.statusCode ?? 0;
  return {
    status,
    ok: status >= 200 && status < 300,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    text,
    json: () => JSON.parse(text),
  };
}

/**
 * Sends one request and reads its whole answer. `timeoutMs` bounds the request and the body
 * together: when it passes first, the connection is closed and the promise rejects with a
 * RequestTimeout. A connection that fails or closes before the body is complete rejects with the
 * transport's error.
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string, timeoutMs?: number }} [options]
 */
export function request(url, { method = "GET", headers = {}, body, timeoutMs } = {}) {
  return new Promise((resolve, reject) => {
    const sent = body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) };
    const outgoing = http.request(url, { method, headers: sent });
    let settled = false;
    // When the time limit fires late (a busy machine), an answer that arrived meanwhile is read
    // first: the limit is decided after the pending input, not before it.
    const late = () => setImmediate(() => fail(new RequestTimeout()));
    const timer = timeoutMs === undefined ? undefined : setTimeout(late, timeoutMs);
    function fail(error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      reject(error);
    }
    outgoing.on("error", fail);
    outgoing.on("response", (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("error", fail);
      response.on("close", () => {
        if (!response.complete) fail(new Error("the connection closed before the whole answer"));
      });
      response.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(reply(response, Buffer.concat(chunks).toString("utf8")));
      });
    });
    outgoing.end(body);
  });
}

/**
 * Opens a response to read as it arrives (an event stream): resolves with its status and its
 * body, an async iterable of chunks, once the headers are in. Aborting `signal` closes the
 * connection at any time. A non-2xx body is read and dropped, and the body is then empty.
 * @param {string} url
 * @param {AbortSignal} signal
 */
export function openStream(url, signal) {
  return new Promise((resolve, reject) => {
    const outgoing = http.get(url);
    signal.addEventListener("abort", () => outgoing.destroy(), { once: true });
    outgoing.on("error", reject);
    outgoing.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      // The stream's own errors (the connection closed while it is read) end its iteration.
      response.on("error", () => {});
      if (!ok) response.resume();
      resolve({ status, ok, body: response });
    });
  });
}
