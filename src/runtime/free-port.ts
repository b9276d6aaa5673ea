import { createServer } from "node:net";
import { readRegularFileSync } from "../support/regular-file.js";
import { PortReservations } from "./port-reservation.js";

/** Where the OS picks ports for outgoing connections and `listen(0)` (Linux default 32768–60999). */
function ephemeralRange(): { readonly low: number; readonly high: number } {
  try {
    const [low, high] = readRegularFileSync("/proc/sys/net/ipv4/ip_local_port_range", 4096)
      .toString("utf8")
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return { low: low as number, high: high as number };
  } catch {
    // Not Linux: assume the IANA dynamic range.
  }
  return { low: 49152, high: 65535 };
}

/** Binds `port` on 127.0.0.1 (0: any) and releases it at once; resolves the bound port, or null when taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(null));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === "object" && address !== null ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

// Above the fixed ports the bundled examples and common dev servers use (8000s, 19xxx).
const LOWEST = 20_000;
const ATTEMPTS = 64;

const reservations = new PortReservations();

/**
 * One free loopback TCP port for a `{port}` dependency. It is chosen at random below the OS's
 * ephemeral range when there is room: the OS never hands those ports to outgoing connections or
 * to `listen(0)`, so nothing else running here takes it between this check and the dependency's
 * own bind (a port from `listen(0)` could be reused at once by any new connection), and a
 * reservation keeps the other Agent Chaos processes of the machine from choosing it meanwhile
 * (port-reservation.ts). Falls back to an OS-chosen port.
 */
export async function freeLoopbackPort(
  options: { readonly random?: () => number; readonly reservations?: PortReservations } = {},
): Promise<number> {
  const random = options.random ?? Math.random;
  const held = options.reservations ?? reservations;
  const { low } = ephemeralRange();
  if (low - LOWEST >= 1000) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const candidate = LOWEST + Math.floor(random() * (low - LOWEST));
      const port = await tryPort(candidate);
      if (port !== null && held.reserve(port)) return port;
    }
  }
  const port = await tryPort(0);
  if (port === null) throw new Error("no loopback port available");
  return port;
}
