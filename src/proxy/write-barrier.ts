import { ServerResponse } from "node:http";

/** The `ServerResponse` methods that put bytes on the workload's connection or close it. */
const SENDING_METHODS = [
  "write",
  "end",
  "flushHeaders",
  "writeContinue",
  "writeProcessing",
  "writeEarlyHints",
  "destroy",
] as const;

type Method = (this: ServerResponse, ...args: unknown[]) => unknown;

/**
 * A `ServerResponse` class whose every sending method first calls `flush` (the recorder's
 * group commit): whatever was recorded before a response byte is sent, or before the
 * connection is closed, is written first, whichever fault or relay sends it. When `flush`
 * throws (the events can no longer be written), the response is destroyed instead of sent.
 */
export function writeBarrierResponse(flush: () => void): typeof ServerResponse {
  class WriteBarrierResponse extends ServerResponse {}
  const original = ServerResponse.prototype as unknown as Record<string, Method | undefined>;
  const destroy = original.destroy as Method;
  for (const name of SENDING_METHODS) {
    const send = original[name];
    if (typeof send !== "function") continue;
    Object.defineProperty(WriteBarrierResponse.prototype, name, {
      configurable: true,
      writable: true,
      value: function (this: ServerResponse, ...args: unknown[]) {
        try {
          flush();
        } catch {
          destroy.call(this);
          return name === "write" ? false : this;
        }
        return send.apply(this, args);
      },
    });
  }
  return WriteBarrierResponse as typeof ServerResponse;
}
