import type { Server, Socket } from "node:net";

/** The socket methods that put bytes on a connection or close it. */
const SENDING_METHODS = ["write", "end", "destroy", "destroySoon", "resetAndDestroy"] as const;

type Method = (this: Socket, ...args: unknown[]) => unknown;

/**
 * Makes every sending method of `socket` first call `flush` (the recorder's group commit):
 * whatever was recorded before a byte goes to the peer, or before the connection is closed, is
 * written first, whichever response, relay or fault sends it. When `flush` throws (the events
 * can no longer be written), the connection is destroyed instead.
 */
export function guardSocket(socket: Socket, flush: () => void): void {
  const own = socket as unknown as Record<string, Method | undefined>;
  const destroy = own.destroy as Method;
  for (const name of SENDING_METHODS) {
    const send = own[name];
    if (typeof send !== "function") continue;
    own[name] = function (this: Socket, ...args: unknown[]) {
      try {
        flush();
      } catch {
        destroy.call(this);
        return name === "write" ? false : this;
      }
      return send.apply(this, args);
    };
  }
}

/** `guardSocket` on every connection `server` accepts. */
export function guardConnections(server: Server, flush: () => void): void {
  server.on("connection", (socket: Socket) => guardSocket(socket, flush));
}
