import type { IncomingMessage, ServerResponse } from "node:http";
import type { OperationLedger } from "../events/operation.js";
import type { CanaryBook } from "../faults/corruption/canary-book.js";
import { canaryOf } from "../faults/corruption/fault-canary.js";
import type { ArmedFault } from "../faults/registry.js";
import { selectOperation } from "../faults/selection.js";
import type { ResponseRelay } from "../faults/types.js";
import { type Exchange, failInternally, sendUpstream } from "./exchange.js";
import { type AcceptedRequest, acceptRequests } from "./exchange-entry.js";
import { executeFault } from "./fault-context.js";
import type { UpstreamPort } from "./forward.js";
import type { HeldOperations } from "./holds.js";
import { httpOperationIdentity, type IdentityRule, idempotencyKey } from "./identity.js";
import { defaultRelay } from "./relay.js";
import { splitTarget } from "./request-target.js";
import { REQUEST_TOO_LARGE, sendSynthetic } from "./responses.js";
import { tapUsage } from "./usage-tap.js";

const itself = (fault: ArmedFault): ArmedFault => fault;

export type Forwarder = (exchange: Exchange, relay?: (defaultRelay: ResponseRelay) => ResponseRelay) => void;

export interface PipelineParts {
  readonly ledger: OperationLedger;
  readonly holds: HeldOperations;
  readonly upstream: UpstreamPort;
  /** Each with its own trigger state; all matching ones count, the first selected one acts. */
  readonly faults: readonly ArmedFault[];
  /** How a request's body takes part in its fingerprint, and its idempotency key (schema 2). */
  readonly identity: IdentityRule;
  /** The run's canaries (corruption faults and their sinks); null when it has none. */
  readonly canaries?: CanaryBook | null;
}

/**
 * The request pipeline: read the body → open the operation → the synchronous selection
 * section → a fault executor or the normal forward. No exception leaves it.
 */
export function createRequestHandler(
  parts: PipelineParts,
): (request: IncomingMessage, response: ServerResponse) => void {
  const { ledger, holds, upstream, faults, identity } = parts;
  const canaries = parts.canaries ?? null;

  /** The token quotas that let an exchange through, counting the usage of its answer. */
  const tokenCounters = new WeakMap<Exchange, (tokens: number) => void>();

  const forward: Forwarder = (exchange, wrap) => {
    if (exchange.operation.finished) return;
    // A fault that wraps the relay decides itself whether it acts on the response.
    const relay = defaultRelay(exchange, wrap === undefined && exchange.operation.wasInjected);
    const wrapped = wrap === undefined ? relay : wrap(relay);
    const countTokens = tokenCounters.get(exchange);
    sendUpstream(upstream, exchange, countTokens === undefined ? wrapped : tapUsage(wrapped, countTokens));
  };

  /** The selection section (one tick), plus the token quotas that count this exchange's answer. */
  const select = (exchange: Exchange): ArmedFault | null => {
    const { operation } = exchange;
    const { chosen, tokenQuotas } = selectOperation(operation, faults, itself, holds);
    if (tokenQuotas.length > 0) {
      tokenCounters.set(exchange, (tokens) => {
        for (const quota of tokenQuotas) {
          quota.countTokens?.(tokens);
          operation.tokensCounted(quota.id, tokens);
        }
      });
    }
    return chosen;
  };

  const handle: AcceptedRequest = (request, response, body, receivedAt) => {
    const target = splitTarget(request.url ?? "/");
    const operation = ledger.begin(
      httpOperationIdentity(identity, request.method as string, target, body, idempotencyKey(request)),
      receivedAt,
    );
    const exchange: Exchange = { operation, request, response, target: target.forward, body: body.bytes };
    // A workload that leaves before any byte of its answer was sent got none, whatever the
    // upstream answers later (an answer being streamed records its own end).
    response.once("close", () => {
      if (!response.headersSent) operation.fail("client_disconnected", null);
    });
    try {
      if (body.tooLarge) {
        operation.observe();
        operation.fail("request_body_too_large", 413);
        sendSynthetic(response, REQUEST_TOO_LARGE);
        return;
      }
      const fault = select(exchange);
      canaries?.scanRequest(ledger.dependency, operation.id, exchange.target, exchange.body);
      if (fault === null) forward(exchange);
      else executeFault(exchange, fault, holds, forward, canaryOf(canaries, fault, operation));
    } catch {
      failInternally(exchange);
    }
  };

  return acceptRequests(ledger, handle);
}
