/**
 * Real-socket fixtures for proxy tests: an in-memory event sink, a `node:http` upstream on
 * port 0 that counts its hits, fault builders and a cleanup stack run after every test.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  LegacyEvent,
  LegacyEventPayload,
  LegacyEventType,
  LegacyPayloadOf,
} from "../../src/events/legacy/types.js";
import type { PayloadSink } from "../../src/events/operation.js";
import type { EventPayload } from "../../src/events/types.js";
import { toSchema1Payload } from "../../src/events/wire-schema-1.js";
import { type ArmableHttpFault, isArmable } from "../../src/faults/registry.js";
import { type RunningProxy, startProxy } from "../../src/proxy/server.js";
import type { LegacyFault, LegacyTarget } from "../../src/scenario/legacy/types.js";
import { upgradeFault } from "../../src/scenario/legacy/upgrade.js";
import type { OccurrenceTrigger } from "../../src/scenario/types.js";
import { onCleanup } from "./cleanup.js";

/** What a proxy of a schema-1 run is given beside its upstream: the upgraded dependency's name and policy. */
export const SCHEMA_1_PROXY = { dependency: "api", countStreamEvents: false } as const;

/**
 * Collects events in memory with recorder-like envelopes (sequence from 1), in the schema-1 wire
 * form the recorder of a schema-1 run writes (an event schema 1 does not have is not kept).
 */
export class LegacyMemorySink implements PayloadSink {
  readonly events: LegacyEvent[] = [];

  emit(internal: EventPayload): LegacyEvent | null {
    const payload = toSchema1Payload(internal);
    if (payload === null) return null;
    const event: LegacyEvent = {
      schema_version: 1,
      event_id: randomUUID(),
      run_id: "test-run",
      sequence: this.events.length + 1,
      timestamp: new Date().toISOString(),
      elapsed_ms: 0,
      type: payload.kind,
      component: "proxy",
      payload,
    };
    this.events.push(event);
    return event;
  }

  payloads(): LegacyEventPayload[] {
    return this.events.map((event) => event.payload);
  }

  ofKind<T extends LegacyEventType>(kind: T): LegacyPayloadOf<T>[] {
    return this.payloads().filter((payload): payload is LegacyPayloadOf<T> => payload.kind === kind);
  }

  /** Event kinds of one operation, in recorder order. */
  kindsOf(operationId: string): LegacyEventType[] {
    return this.payloads()
      .filter((payload) => "operation_id" in payload && payload.operation_id === operationId)
      .map((payload) => payload.kind);
  }
}

export interface UpstreamHit {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly rawHeaders: string[];
  readonly body: Buffer;
}

export interface TestUpstream {
  readonly url: string;
  readonly hits: UpstreamHit[];
  readonly server: Server;
}

export type UpstreamHandler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

export { onCleanup };

/** A real `node:http` upstream; the default handler answers 200 `{"ok":true}`. */
export async function startUpstream(handler?: UpstreamHandler): Promise<TestUpstream> {
  const hits: UpstreamHit[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      hits.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        body,
      });
      if (handler !== undefined) handler(request, response, body);
      else response.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

/** Starts a proxy in front of `upstreamBaseUrl`, closed after the test. */
export async function startTestProxy(
  upstreamBaseUrl: string,
  fault: ArmableHttpFault | null = null,
  sink: PayloadSink = new LegacyMemorySink(),
): Promise<RunningProxy> {
  const proxy = await startProxy({
    upstreamBaseUrl,
    faults: fault === null ? [] : [fault],
    sink,
    ...SCHEMA_1_PROXY,
  });
  onCleanup(() => proxy.close());
  return proxy;
}

export function schedule(...occurrences: number[]): OccurrenceTrigger {
  return { kind: "occurrence_schedule", occurrences };
}

export function target(path: string, method: string | null = null): LegacyTarget {
  return { method, path };
}

const ANY: LegacyTarget = { method: null, path: "/*" };

/** A schema-1 fault as loading upgrades it: the only fault shape the proxy takes. */
function upgraded(fault: LegacyFault): ArmableHttpFault {
  const internal = upgradeFault(fault);
  if (!isArmable(internal)) throw new Error(`not an HTTP fault: ${internal.type}`);
  return internal;
}

/** Schema-1 faults, written as a schema-1 file states them and upgraded as loading does. */
export const legacyFaults = {
  latency: (latencyMs: number, trigger: OccurrenceTrigger, on: LegacyTarget = ANY) =>
    upgraded({ type: "http_latency", target: on, trigger, latencyMs }),
  error: (statusCode: number, trigger: OccurrenceTrigger, on: LegacyTarget = ANY) =>
    upgraded({ type: "http_error", target: on, trigger, statusCode }),
  rateLimit: (retryAfterSeconds: number, trigger: OccurrenceTrigger, on: LegacyTarget = ANY) =>
    upgraded({ type: "http_rate_limit", target: on, trigger, retryAfterSeconds }),
  malformedJson: (trigger: OccurrenceTrigger, on: LegacyTarget = ANY) =>
    upgraded({ type: "http_malformed_json", target: on, trigger }),
  disconnect: (trigger: OccurrenceTrigger, on: LegacyTarget = ANY) =>
    upgraded({ type: "http_disconnect", target: on, trigger }),
};

/** Resolves after `ms`, for deliberate pauses (never for waiting on an outcome). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
