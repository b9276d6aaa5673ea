/**
 * Runs one path-parity case through one of the proxy's two paths and returns what can be
 * compared: the responses the workload received, the requests the upstream received and the
 * recorded events, with what differs by nature (times, ids, ports) masked.
 */

import type { LegacyEventPayload } from "../../src/events/legacy/types.js";
import type { PayloadSink } from "../../src/events/operation.js";
import type { EventPayload } from "../../src/events/types.js";
import { toSchema1Payload } from "../../src/events/wire-schema-1.js";
import type { ArmableHttpFault } from "../../src/faults/registry.js";
import { startProxy } from "../../src/proxy/server.js";
import { type ParityCase, type RequestSpec, requestBytes } from "./parity-cases.js";
import {
  DEAD_URL,
  RawClient,
  type RawUpstream,
  type ReceivedResponse,
  splitResponses,
  startRawUpstream,
  type UpstreamRequest,
} from "./parity-wire.js";
import { legacyFaults } from "./proxy-harness.js";

/** `lane`: no fault, the fast lane serves. `pipeline`: a fault targets every request but never fires. */
export type ProxyPath = "lane" | "pipeline";

/** One response the workload received; headers as sorted `name: value` lines, the proxy's own date masked. */
export interface ObservedResponse extends Omit<ReceivedResponse, "headers"> {
  readonly headers: readonly string[];
}

export interface Observation {
  readonly agent: readonly ObservedResponse[];
  /** Without `host` and `connection` (each path keeps its own upstream connections). */
  readonly upstream: readonly UpstreamRequest[];
  /** Operation ids numbered by first appearance, durations masked. */
  readonly events: readonly Record<string, unknown>[];
}

type Payload = LegacyEventPayload | EventPayload;

/** The payloads as the run's recorder writes them: a schema-1 run's in the schema-1 wire form. */
class PayloadList implements PayloadSink {
  readonly payloads: Payload[] = [];
  readonly #schema: 1 | 2;
  constructor(schema: 1 | 2) {
    this.#schema = schema;
  }
  emit(payload: Payload): void {
    const written = this.#schema === 1 ? toSchema1Payload(payload) : payload;
    if (written !== null) this.payloads.push(written);
  }

  /** Every observed operation has its terminal event. */
  get settled(): boolean {
    const open = new Set<string>();
    for (const payload of this.payloads) {
      if (payload.kind === "OPERATION_OBSERVED") open.add(payload.operation_id);
      if (payload.kind === "OPERATION_SUCCEEDED" || payload.kind === "OPERATION_FAILED")
        open.delete(payload.operation_id);
    }
    return open.size === 0;
  }
}

/** A fault on every request whose occurrence never comes: the full pipeline takes each connection. */
function idleFault(schema: 1 | 2): ArmableHttpFault {
  if (schema === 1)
    return legacyFaults.error(
      503,
      { kind: "occurrence_schedule", occurrences: [1000] },
      { method: null, path: "*" },
    );
  return {
    id: "f1",
    dependency: "api",
    type: "http_error",
    target: { kind: "http", method: null, path: "*" },
    trigger: { kind: "occurrence_schedule", occurrences: [1000] },
    expect: "recover",
    statusCode: 503,
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** `work`, or a failure naming what did not happen within 5 s (a hang is a finding, not a wait). */
async function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited in vain for ${what}`)), 5_000);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function completeResponses(client: RawClient, methods: readonly string[]): number {
  return splitResponses(client.bytes, methods, client.isClosed).filter((response) => response.complete)
    .length;
}

/** Whether the last complete response announced that the proxy closes the connection. */
function closingAnnounced(client: RawClient, methods: readonly string[]): boolean {
  const complete = splitResponses(client.bytes, methods, client.isClosed).filter(
    (response) => response.complete,
  );
  const last = complete[complete.length - 1];
  return last?.headers.some(([name, value]) => name === "connection" && value === "close") === true;
}

/** The workload's side of a case. */
async function drive(
  testCase: ParityCase,
  client: RawClient,
  upstream: RawUpstream | null,
  sink: PayloadList,
): Promise<void> {
  await client.connected;
  const { requests, ending } = testCase;
  const methods = requests.map((request) => request.method);
  const last = requests.length - 1;
  const cut = ending.kind === "half-close-incomplete" || ending.kind === "leave-sending" ? ending.keep : null;
  const bytesOf = (index: number) => {
    const bytes = requestBytes(requests[index] as RequestSpec);
    return index === last && cut !== null ? bytes.subarray(0, cut) : bytes;
  };
  if (testCase.pipelined) {
    client.write(Buffer.concat(requests.map((_, index) => bytesOf(index))));
  } else {
    for (let index = 0; index < requests.length; index++) {
      if (client.isClosed || closingAnnounced(client, methods)) return finish(client);
      client.write(bytesOf(index));
      if (index === last) break;
      await client.until(() => completeResponses(client, methods) > index);
    }
  }
  switch (ending.kind) {
    case "read-all":
      await client.until(
        (bytes) =>
          splitResponses(bytes, methods, client.isClosed).filter((r) => r.complete).length >= requests.length,
      );
      client.destroy();
      break;
    case "half-close":
    case "half-close-incomplete":
      client.end();
      break;
    case "leave-sending":
      client.reset();
      break;
    case "leave-waiting":
    case "close-waiting":
    case "leave-streaming": {
      if (upstream === null || client.isClosed) break;
      await Promise.race([upstream.received(last).promise, client.closed]);
      if (ending.kind === "leave-streaming") {
        await client.until((bytes) => bytes.includes("data: 1"));
      }
      if (ending.kind === "close-waiting") client.destroy();
      else client.reset();
      await until(() => sink.settled, "the terminal event of the request the workload left");
      upstream.release.fire();
      break;
    }
  }
  await client.closed;
}

function finish(client: RawClient): Promise<void> {
  client.destroy();
  return client.closed;
}

const UPSTREAM_DATE = "Tue, 01 Jan 2030 00:00:00 GMT";

function sortedHeaders(headers: readonly (readonly [string, string])[]): string[] {
  return headers
    .map(([name, value]) => `${name}: ${name === "date" && value !== UPSTREAM_DATE ? "<now>" : value}`)
    .sort();
}

/** Event payloads with operation ids numbered by first appearance and durations masked. */
function maskedEvents(payloads: readonly Payload[]): Record<string, unknown>[] {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    if (!ids.has(id)) ids.set(id, `op${ids.size + 1}`);
    return ids.get(id);
  };
  return payloads.map((payload) => {
    const masked: Record<string, unknown> = { ...payload };
    for (const key of ["operation_id", "retry_of_operation_id"]) {
      if (typeof masked[key] === "string") masked[key] = idOf(masked[key] as string);
    }
    if ("duration_ms" in masked) masked.duration_ms = "<ms>";
    return masked;
  });
}

/** Runs `testCase` through `path` and returns what it observed. */
export async function observe(testCase: ParityCase, path: ProxyPath): Promise<Observation> {
  const upstream = testCase.upstreamDown ? null : await startRawUpstream(testCase.answers);
  const sink = new PayloadList(testCase.schema);
  const proxy = await startProxy({
    upstreamBaseUrl: upstream?.url ?? DEAD_URL,
    faults: path === "pipeline" ? [idleFault(testCase.schema)] : [],
    sink,
    dependency: "api",
    ...(testCase.schema === 2 ? {} : { countStreamEvents: false }),
  });
  const client = new RawClient(proxy.url);
  try {
    await withDeadline(drive(testCase, client, upstream, sink), "the workload's connection to finish");
    await until(() => sink.settled, "every operation's terminal event");
  } finally {
    client.destroy();
    await proxy.close();
    await upstream?.close();
  }
  const methods = testCase.requests.map((request) => request.method);
  return {
    agent: splitResponses(client.bytes, methods, client.isClosed).map((response) => ({
      ...response,
      headers: sortedHeaders(response.headers),
    })),
    upstream: (upstream?.requests ?? []).map((request) => ({
      ...request,
      // Hop-by-hop: each path manages its own upstream connections.
      headers: request.headers.filter(([name]) => name !== "host" && name !== "connection"),
    })),
    events: maskedEvents(sink.payloads),
  };
}
