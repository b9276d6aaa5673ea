import type { Operation } from "../../events/operation.js";
import type { StreamEventObserver } from "../../proxy/stream-relay.js";
import type { McpCompletion } from "./mcp-completion.js";
import { SseDataReader } from "./sse-data.js";

/**
 * Watches an event stream for the answer to one JSON-RPC request (docs/mcp.md): the data of each
 * event is read as it goes by, and the event with the response carrying the request's id is
 * recorded by `completion` before its bytes go out. When the agent cancelled the request, that
 * chunk is not relayed: the stream ends before it. The events counted are those with data.
 */
export class StreamAnswer implements StreamEventObserver {
  readonly #operation: Operation;
  readonly #completion: McpCompletion;
  readonly #reader = new SseDataReader();
  #events = 0;
  #answered = false;

  constructor(operation: Operation, completion: McpCompletion) {
    this.#operation = operation;
    this.#completion = completion;
  }

  get events(): number {
    return this.#events;
  }

  read(chunk: Buffer): boolean {
    for (const data of this.#reader.push(chunk)) {
      this.#events++;
      if (this.#answered) continue;
      if (!this.#completion.answeredBy(this.#operation, data, this.#events)) continue;
      this.#answered = true;
      if (this.#completion.withheld(this.#operation)) return false;
    }
    return true;
  }
}
