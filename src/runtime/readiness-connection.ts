import { connect, type Socket } from "node:net";

/** Where a readiness URL's server listens: its host (IPv6 without brackets) and port. */
export interface ReadinessAddress {
  readonly host: string;
  readonly port: number;
}

/** The address an `http:` readiness URL names (port 80 when it names none). */
export function readinessAddress(url: string): ReadinessAddress {
  const parsed = new URL(url);
  const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return { host, port: parsed.port === "" ? 80 : Number(parsed.port) };
}

/**
 * Opens the TCP connection of one readiness attempt before any HTTP is involved: while a
 * dependency is starting, most attempts are refused, and a refused connection costs a fraction
 * of a refused HTTP request (no request object, no headers, no error passed through the HTTP
 * client), which a run pays for every attempt (docs/performance.md). Resolves with the open
 * socket, or with the error that ended the attempt (the caller names it as it names an HTTP
 * client's error).
 */
export function openReadinessConnection(
  address: ReadinessAddress,
  signal: AbortSignal,
): Promise<{ readonly socket: Socket } | { readonly failure: unknown }> {
  return new Promise((resolve) => {
    const socket = connect({ host: address.host, port: address.port, signal });
    const onError = (error: unknown): void => {
      socket.off("connect", onConnect);
      socket.destroy();
      resolve({ failure: error });
    };
    const onConnect = (): void => {
      socket.off("error", onError);
      resolve({ socket });
    };
    socket.once("error", onError);
    socket.once("connect", onConnect);
  });
}
