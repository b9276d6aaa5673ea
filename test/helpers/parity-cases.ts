/**
 * The cases of the path-parity test: one workload connection's requests (every body framing),
 * how the connection ends, and the upstream's answer to each request (every framing and
 * failure), as plain data, with the exact bytes each side writes and fast-check arbitraries.
 */
import fc from "fast-check";

export type RequestBody =
  | { readonly kind: "none" }
  | { readonly kind: "length"; readonly text: string }
  /** Repeated `Content-Length` lines (or one list value) that all agree. */
  | { readonly kind: "repeated-length"; readonly text: string; readonly asList: boolean }
  | {
      readonly kind: "chunked";
      readonly chunks: readonly string[];
      readonly extensions: boolean;
      readonly trailers: boolean;
    };

export interface RequestSpec {
  readonly method: string;
  /** `/p/<index>` plus an optional query: the upstream answers by the index. */
  readonly target: string;
  readonly version: "HTTP/1.1" | "HTTP/1.0";
  readonly headers: readonly (readonly [string, string])[];
  readonly body: RequestBody;
  /** Sends `Connection: close`. */
  readonly close: boolean;
  /** Leaves out `Host` (which HTTP/1.1 requires). */
  readonly hostless: boolean;
  /** Adds 2,100 short header lines. */
  readonly manyHeaders: boolean;
  /** Pads the head to exactly this size by the proxy's head-limit count (see `headCount`). */
  readonly padTo: number | null;
}

/** Whether a piece of the upstream's answer waits for the test to let it go. */
export type Hold = "none" | "before-head" | "after-first-piece";

/** An answer with a status and a body in one of the three framings. */
export interface FramedAnswer {
  readonly kind: "length" | "chunked" | "close-delimited";
  readonly status: number;
  readonly contentType: string;
  readonly pieces: readonly string[];
  readonly extraHeaders: readonly (readonly [string, string])[];
  readonly hold: Hold;
  /** A `103 Early Hints` before the answer. */
  readonly interim: boolean;
}

export type AnswerSpec =
  | FramedAnswer
  | { readonly kind: "no-body"; readonly status: 204 | 304 }
  /** The head (with a length or chunked) and the first piece, then the connection closes. */
  | { readonly kind: "cut"; readonly chunked: boolean; readonly contentType: string; readonly reset: boolean }
  /** The connection closes (or resets) before any byte of an answer. */
  | { readonly kind: "drop"; readonly reset: boolean }
  /** Not a valid HTTP/1.1 response. */
  | { readonly kind: "invalid"; readonly bytes: string };

/** How the workload's connection ends after its requests. */
export type Ending =
  /** Reads every answer, then closes. */
  | { readonly kind: "read-all" }
  /** Shuts its write side after the last request and reads until the proxy closes. */
  | { readonly kind: "half-close" }
  /** Sends only the first `keep` bytes of its last request, then shuts its write side. */
  | { readonly kind: "half-close-incomplete"; readonly keep: number }
  /** Resets the connection once its last request reached the upstream (before the answer). */
  | { readonly kind: "leave-waiting" }
  /** Closes the connection (a FIN, as clients that give up do) once its last request reached the upstream. */
  | { readonly kind: "close-waiting" }
  /** Resets the connection after the first piece of an event stream. */
  | { readonly kind: "leave-streaming" }
  /** Resets the connection in the middle of its last request. */
  | { readonly kind: "leave-sending"; readonly keep: number };

export interface ParityCase {
  readonly schema: 1 | 2;
  readonly requests: readonly RequestSpec[];
  /** The upstream's answer to request i (by its target's index). */
  readonly answers: readonly AnswerSpec[];
  /** All requests in one write (pipelining) rather than each after the previous answer. */
  readonly pipelined: boolean;
  readonly ending: Ending;
  /** No upstream listens: every forward is refused. */
  readonly upstreamDown: boolean;
}

const FORWARDED = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

/**
 * A head's size by the rule both paths share: the target, plus each header's name and its
 * value from the first non-blank byte to the line's end.
 */
export function headCount(target: string, lines: readonly string[]): number {
  let count = target.length;
  for (const line of lines) {
    const colon = line.indexOf(":");
    count += colon + line.slice(colon + 1).replace(/^[ \t]+/, "").length;
  }
  return count;
}

/** The request bytes as the workload writes them. */
export function requestBytes(spec: RequestSpec): Buffer {
  const lines: string[] = [];
  if (!spec.hostless) lines.push("Host: proxy.test");
  for (const [name, value] of spec.headers) lines.push(`${name}: ${value}`);
  if (spec.manyHeaders) for (let i = 0; i < 2100; i++) lines.push(`x-m: ${i % 10}`);
  if (spec.close) lines.push("Connection: close");
  let head = "";
  const body = spec.body;
  let payload = "";
  switch (body.kind) {
    case "none":
      break;
    case "length":
      lines.push(`Content-Length: ${Buffer.byteLength(body.text)}`);
      payload = body.text;
      break;
    case "repeated-length": {
      const n = Buffer.byteLength(body.text);
      if (body.asList) lines.push(`Content-Length: ${n}, ${n}`);
      else lines.push(`Content-Length: ${n}`, `content-length: ${n}`);
      payload = body.text;
      break;
    }
    case "chunked":
      lines.push("Transfer-Encoding: chunked");
      for (const chunk of body.chunks) {
        payload += `${Buffer.byteLength(chunk).toString(16)}${body.extensions ? ';ext="a b"' : ""}\r\n${chunk}\r\n`;
      }
      payload += body.trailers ? "0\r\nX-Trailer: t\r\n\r\n" : "0\r\n\r\n";
      break;
  }
  if (spec.padTo !== null) {
    const missing = spec.padTo - headCount(spec.target, lines) - "X-Pad".length;
    lines.push(`X-Pad: ${"p".repeat(Math.max(0, missing))}`);
  }
  head = `${spec.method} ${spec.target} ${spec.version}\r\n${lines.map((line) => `${line}\r\n`).join("")}`;
  return Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), Buffer.from(payload, "utf8")]);
}

/** The index the upstream answers request `target` by, or null. */
export function answerIndex(target: string): number | null {
  const match = /^\/p\/(\d+)/.exec(target);
  return match === null ? null : Number(match[1]);
}

const text = fc.string({ unit: fc.constantFrom("a", "b", "é", "{", "}", " ", "\n", ":"), maxLength: 12 });
const nonEmptyText = text.filter((value) => value.length > 0);

const requestBody: fc.Arbitrary<RequestBody> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "none" } as const) },
  { weight: 3, arbitrary: text.map((value) => ({ kind: "length", text: value }) as const) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("repeated-length"), text, asList: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("chunked"),
      chunks: fc.array(nonEmptyText, { maxLength: 3 }),
      extensions: fc.boolean(),
      trailers: fc.boolean(),
    }),
  },
);

const extraHeaders = fc.subarray([
  ["X-Trace", "t-1"],
  ["Idempotency-Key", "k-1"],
  ["Authorization", "Bearer secret"],
  ["Accept", "application/json"],
  ["X-Spaced", "  padded  "],
  ["Keep-Alive", "timeout=5"],
  ["X-Latin", "caf\u00e9"],
] as const);

const rare = <T>(usual: T, other: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: other });

function requestSpec(index: number): fc.Arbitrary<RequestSpec> {
  return fc.record({
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...FORWARDED) },
      { weight: 1, arbitrary: fc.constant("TRACE") },
    ),
    target: fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(`/p/${index}`, `/p/${index}?q=1&r=%20x`, `/p/${index}/caf%C3%A9`),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(`/p/${index}/"{|}^\``, `/p/${index}#frag`, `/p/${index}//x/../y`),
      },
    ),
    version: fc.oneof(
      { weight: 8, arbitrary: fc.constant("HTTP/1.1" as const) },
      { weight: 1, arbitrary: fc.constant("HTTP/1.0" as const) },
    ),
    headers: extraHeaders,
    body: requestBody,
    close: fc.oneof(
      { weight: 6, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    hostless: rare(false, fc.constant(true)),
    manyHeaders: rare(false, fc.constant(true)),
    padTo: rare<number | null>(null, fc.constantFrom(16_383, 16_384, 20_000)),
  });
}

const contentType = fc.constantFrom("application/json", "text/plain; charset=utf-8", "text/event-stream");
const pieces = fc.array(nonEmptyText, { minLength: 1, maxLength: 3 });
const statusCode = fc.constantFrom(200, 200, 201, 301, 404, 429, 500, 502, 503);

const answerSpec: fc.Arbitrary<AnswerSpec> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constantFrom("length", "chunked", "close-delimited"),
      status: statusCode,
      contentType,
      pieces,
      extraHeaders: fc.subarray([
        ["Retry-After", "2"],
        ["Set-Cookie", "a=1"],
        ["X-Upstream", "u"],
        ["Date", "Tue, 01 Jan 2030 00:00:00 GMT"],
        ["X-Latin", "caf\u00e9"],
      ] as const),
      hold: fc.constant("none" as const),
      interim: rare(false, fc.constant(true)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("no-body"),
      status: fc.constantFrom(204 as const, 304 as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("cut"),
      chunked: fc.boolean(),
      contentType,
      reset: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop"), reset: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("invalid"),
      bytes: fc.constantFrom(
        "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
        "HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-Bad: a\u0001b\r\nContent-Length: 0\r\n\r\n",
        "SSH-2.0-nope\r\n\r\n",
      ),
    }),
  },
);

const ending: fc.Arbitrary<Ending> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: "read-all" } as const) },
  { weight: 3, arbitrary: fc.constant({ kind: "half-close" } as const) },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 1, max: 40 })
      .map((keep) => ({ kind: "half-close-incomplete", keep }) as const),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "leave-waiting" } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: "close-waiting" } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: "leave-streaming" } as const) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 40 }).map((keep) => ({ kind: "leave-sending", keep }) as const),
  },
);

/** Generated cases: 1–4 requests, their answers, pipelined or not, one ending. */
export const parityCase: fc.Arbitrary<ParityCase> = fc
  .integer({ min: 1, max: 4 })
  .chain((count) =>
    fc.record({
      schema: fc.constantFrom(1 as const, 2 as const),
      requests: fc.tuple(...Array.from({ length: count }, (_, index) => requestSpec(index))),
      answers: fc.tuple(...Array.from({ length: count }, () => answerSpec)),
      pipelined: fc.boolean(),
      ending,
      upstreamDown: fc.oneof(
        { weight: 15, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    }),
  )
  .map(settleCase);

/**
 * Makes a generated case well defined: an ending that waits on an answer gets one that can be
 * waited on (a held answer to a GET it can see), and bytes cut from the last request are
 * fewer than it has.
 */
export function settleCase(draft: ParityCase): ParityCase {
  const last = draft.requests.length - 1;
  const requests = [...draft.requests];
  const answers = [...draft.answers];
  const lastRequest = requests[last] as RequestSpec;
  let ending = draft.ending;
  let upstreamDown = draft.upstreamDown;
  let pipelined = draft.pipelined;
  if (
    ending.kind === "leave-waiting" ||
    ending.kind === "close-waiting" ||
    ending.kind === "leave-streaming"
  ) {
    // The workload leaves while this request waits on the upstream: a forwarded GET that keeps
    // the connection, answered only after the proxy saw the workload leave.
    requests[last] = {
      ...lastRequest,
      method: "GET",
      version: "HTTP/1.1",
      close: false,
      hostless: false,
      padTo: null,
      body: { kind: "none" },
    };
    answers[last] = {
      kind: "chunked",
      status: 200,
      contentType: ending.kind === "leave-streaming" ? "text/event-stream" : "application/json",
      pieces: ["data: 1\n\n", "data: 2\n\n"],
      extraHeaders: [],
      hold: ending.kind === "leave-streaming" ? "after-first-piece" : "before-head",
      interim: false,
    };
    upstreamDown = false;
    // Every earlier answer is read before it leaves.
    pipelined = false;
  }
  if (ending.kind === "half-close-incomplete" || ending.kind === "leave-sending") {
    const size = requestBytes(requests[last] as RequestSpec).length;
    ending = { ...ending, keep: Math.min(ending.keep, size - 1) };
    if (ending.kind === "leave-sending") pipelined = false;
  }
  return { ...draft, requests, answers, ending, upstreamDown, pipelined };
}
