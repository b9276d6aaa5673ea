import { connect } from "node:net";
import { portOfUrl } from "./fixed-ports.js";
import { thisMachineAddresses } from "./this-machine.js";

const PROBE_TIMEOUT_MS = 500;

/** Whether something accepts a TCP connection at `address:port` (a refusal or an unusable address: no). */
export function accepting(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    let answered = false;
    const done = (inUse: boolean): void => {
      if (answered) return;
      answered = true;
      socket.destroy();
      resolve(inUse);
    };
    // No answer in time: a listener that does not accept. A timer that fires late because the
    // event loop was busy may meet the answer already waiting: it is read first (the I/O phase
    // comes before `setImmediate`'s), so a refused port is not taken for a busy one.
    socket.setTimeout(PROBE_TIMEOUT_MS, () => setImmediate(() => done(true)));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * The port of `baseUrl` when its host is this machine (in any spelling: see `thisMachineAddresses`),
 * the port is fixed (given, or the scheme's default) and something already accepts connections
 * at one of the addresses the host stands for; else null. Checked before a managed dependency
 * starts: a foreign listener (an orphan of an earlier run, anything) would otherwise answer
 * readiness and every request while the real dependency fails to bind.
 */
export async function portInUse(baseUrl: string): Promise<number | null> {
  if (!URL.canParse(baseUrl)) return null;
  const url = new URL(baseUrl);
  const addresses = await thisMachineAddresses(url.hostname);
  if (addresses.length === 0) return null;
  const port = portOfUrl(url) ?? 80;
  const probes = await Promise.all(addresses.map((address) => accepting(address, port)));
  return probes.includes(true) ? port : null;
}
