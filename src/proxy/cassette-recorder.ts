/**
 * `agentchaos record`'s upstream (docs/replay.md): a loopback server the dependency's proxy
 * forwards to, which forwards each request to the live `base_url` (TLS verified as usual,
 * `NODE_EXTRA_CA_CERTS` honoured, user info sent as Basic credentials) and writes the live
 * answer into the cassette. It sits behind the proxy, so what it records is what the upstream
 * answered, never what a fault made of it; a fault that answers by itself sends nothing here,
 * and nothing is recorded for it. Request headers, query values and bodies are never kept:
 * only the key hashes and the salted shape.
 */
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import {
  type CassetteBuilder,
  EventSplitter,
  type Interaction,
  keptResponseHeaders,
  redactEventText,
  redactJsonText,
  requestShape,
} from "../replay/cassette.js";
import { BODY_LIMIT } from "../support/body-limit.js";
import { isEventStreamType } from "../support/http-headers.js";
import { type CassetteDialect, httpDialect, type KeyedRequest } from "./cassette-dialect.js";
import { type AnswerCapture, passOnRelay } from "./cassette-relay.js";
import { type LoopbackUpstream, listenLoopback, readCassetteRequest } from "./cassette-request.js";
import { Upstream } from "./forward.js";

export interface RecordingOptions {
  /** The live upstream (may hold user info: never printed). */
  readonly baseUrl: string;
  readonly builder: CassetteBuilder;
  readonly ignoreJsonFields: readonly string[];
  readonly redact: readonly string[];
  /** How requests are keyed (default: plain HTTP with `ignoreJsonFields`). */
  readonly dialect?: CassetteDialect;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The request side of an interaction: key hashes and the salted shape, nothing else. */
function requestSide(request: KeyedRequest, salt: string, ignore: readonly string[]) {
  return { ...request.key, request_shape: requestShape(request.shapeBody, salt, ignore) };
}

/** Captures one answer and adds it to the cassette once complete. */
function answerCapture(request: ReturnType<typeof requestSide>, options: RecordingOptions): AnswerCapture {
  let status = 0;
  let headers: Record<string, string> = {};
  let splitter: EventSplitter | null = null;
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    start(statusCode, received) {
      status = statusCode;
      headers = keptResponseHeaders(received);
      const type = received["content-type"];
      if (isEventStreamType(typeof type === "string" ? type : undefined))
        splitter = new EventSplitter(performance.now());
    },
    data(chunk) {
      if (splitter !== null) {
        splitter.push(chunk, performance.now());
        return;
      }
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    },
    end() {
      // A body past the limit is not kept: the proxy answers it with its own error anyway.
      if (size > BODY_LIMIT) return;
      const base = { ...request, status, headers };
      let interaction: Interaction;
      if (splitter !== null) {
        const events = splitter
          .end(performance.now())
          .map((event) => ({ ...event, text: redactEventText(event.text, options.redact) }));
        interaction = { ...base, events };
      } else {
        const bytes = Buffer.concat(chunks, size);
        let text: string | null;
        try {
          text = UTF8.decode(bytes);
        } catch {
          text = null;
        }
        interaction =
          text === null
            ? { ...base, body_base64: bytes.toString("base64") }
            : { ...base, body: redactJsonText(text, options.redact) };
      }
      options.builder.add(interaction);
    },
  };
}

/** Asks the live upstream for the bytes as they are meant: no content coding to store. */
function identityEncoding(headers: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if ((headers[i] as string).toLowerCase() !== "accept-encoding")
      kept.push(headers[i] as string, headers[i + 1] as string);
  }
  kept.push("accept-encoding", "identity");
  return kept;
}

export async function startRecordingUpstream(options: RecordingOptions): Promise<LoopbackUpstream> {
  const upstream = new Upstream(options.baseUrl);
  await upstream.ready();
  const dialect = options.dialect ?? httpDialect(options.ignoreJsonFields);
  const server = createServer((request, response) => {
    readCassetteRequest(request, (read) => {
      const keyed = dialect.keyOf(read.method, read.target.forward, read.body.bytes);
      const capture =
        keyed === null
          ? null
          : answerCapture(requestSide(keyed, options.builder.salt, dialect.shapeIgnore), options);
      upstream.send(
        {
          method: read.method,
          target: read.target.forward,
          headers: identityEncoding(read.headers),
          body: read.body.bytes,
        },
        passOnRelay(response, capture),
      );
    });
  });
  return listenLoopback(server, () => upstream.close());
}
