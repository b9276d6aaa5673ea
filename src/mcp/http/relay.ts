import type { ResponseRelay, UpstreamControl } from "../../faults/types.js";
import type { Exchange } from "../../proxy/exchange.js";
import { defaultRelay } from "../../proxy/relay.js";
import type { Cancellations } from "../cancellations.js";
import { mcpCompletion } from "./mcp-completion.js";
import { StreamAnswer } from "./stream-answer.js";

/**
 * The relay of the HTTP exchange that carries one JSON-RPC request: the proxy's own relay (JSON
 * buffered, event streams chunk by chunk, the bytes untouched) with the MCP completion rule
 * (`mcpCompletion`): the operation is completed by the JSON-RPC response with the request's id,
 * recorded before the workload can read it. The answer to a request the agent cancelled is not
 * relayed: a JSON body is replaced by `202 Accepted` with no body, an event stream ends before
 * the event that carries it.
 */
export function mcpRelay(exchange: Exchange, idKey: string, cancellations: Cancellations): ResponseRelay {
  const completion = mcpCompletion(idKey, cancellations);
  return defaultRelay(exchange, false, {
    rule: completion,
    observer: (operation) => new StreamAnswer(operation, completion),
    bufferErrorStreams: true,
  });
}

/**
 * `mcp_latency` over HTTP: the upstream response (status, headers, body) is held `ms` after it
 * starts arriving, then handed to `inner` as it came. `released` runs once the wait is over,
 * or when the workload's connection ends first (the upstream exchange is then cancelled).
 */
export function delayedRelay(
  inner: ResponseRelay,
  ms: number,
  response: Exchange["response"],
  released: () => void,
): ResponseRelay {
  const queued: (() => void)[] = [];
  let open = false;
  let over = false;
  let timer: NodeJS.Timeout | undefined;
  let control: UpstreamControl | null = null;
  const finish = (): void => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    response.off("close", onClose);
    released();
  };
  const onClose = (): void => {
    if (open) return;
    finish();
    control?.abort();
  };
  response.once("close", onClose);
  const pass = (call: () => void): void => {
    if (open) call();
    else if (!over) queued.push(call);
  };
  return {
    start(status, headers, upstream) {
      control = upstream;
      queued.push(() => inner.start(status, headers, upstream));
      timer = setTimeout(() => {
        open = true;
        finish();
        for (const call of queued.splice(0)) call();
      }, ms);
    },
    data: (chunk) => pass(() => inner.data(chunk)),
    end: () => pass(() => inner.end()),
    error(error) {
      if (control === null && !over) {
        open = true;
        finish();
      }
      pass(() => inner.error(error));
    },
  };
}
