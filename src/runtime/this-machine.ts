import { lookup } from "node:dns/promises";
import { BlockList, isIP, isIPv6 } from "node:net";
import { networkInterfaces } from "node:os";
import { hostAddress } from "../proxy/base-url.js";

/**
 * Whether a connection to `address` (an IP address in any spelling Node accepts) lands on this
 * machine: the loopback ranges (`127.0.0.0/8`, `::1`), the unspecified addresses (`0.0.0.0`,
 * `::`, which connect to the loopback) and the addresses of this machine's network interfaces.
 * IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`, `::ffff:7f00:1`) count as the IPv4 address
 * they carry.
 */
export function isThisMachine(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const local = new BlockList();
  local.addSubnet("127.0.0.0", 8, "ipv4");
  local.addAddress("0.0.0.0", "ipv4");
  local.addAddress("::1", "ipv6");
  local.addAddress("::", "ipv6");
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      const own = entry.address.replace(/%.*$/, "");
      if (isIP(own) !== 0) local.addAddress(own, isIPv6(own) ? "ipv6" : "ipv4");
    }
  }
  return local.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** `localhost` and its subdomains (with or without the final dot) always name the loopback. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * The addresses of this machine a URL's host stands for (`URL.hostname`, IPv6 in brackets),
 * resolved once: an IP literal is itself, a `localhost` name is both loopback addresses, any
 * other name is what the system resolver gives for it. Empty when the host is elsewhere or
 * does not resolve (then there is nothing of ours to judge).
 */
export async function thisMachineAddresses(hostname: string): Promise<string[]> {
  const host = hostAddress(hostname);
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else if (isLocalhostName(host)) addresses = ["127.0.0.1", "::1"];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch {
      addresses = [];
    }
  }
  return [...new Set(addresses)].filter(isThisMachine);
}
