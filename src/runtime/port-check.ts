import { connect } from "node:net";

const PROBE_TIMEOUT_MS = 500;

/**
 * The loopback addresses a base URL's host stands for, or null when the host is not this
 * machine's loopback (then nothing is checked: the port is not ours to judge).
 */
function loopbackAddresses(hostname: string): string[] | null {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return ["127.0.0.1", "::1"];
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return [host];
  if (host === "0.0.0.0") return ["127.0.0.1"];
  if (host === "[::1]" || host === "[::]") return ["::1"];
  return null;
}

/** Whether something accepts a TCP connection at `host:port` (a refusal or an unusable address: no). */
function accepting(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (inUse: boolean): void => {
      socket.destroy();
      resolve(inUse);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(true));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * The port of `baseUrl` when it is fixed on this machine's loopback (given, or the scheme's
 * default) and something already listens there; else null. Checked before a managed dependency
 * starts: a foreign listener (an orphan of an earlier run, anything) would otherwise answer
 * readiness and every request while the real dependency fails to bind.
 */
export async function portInUse(baseUrl: string): Promise<number | null> {
  if (!URL.canParse(baseUrl)) return null;
  const url = new URL(baseUrl);
  const addresses = loopbackAddresses(url.hostname);
  if (addresses === null) return null;
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  const probes = await Promise.all(addresses.map((address) => accepting(address, port)));
  return probes.includes(true) ? port : null;
}
