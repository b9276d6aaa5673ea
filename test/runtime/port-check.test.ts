import { createServer, type Server } from "node:net";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { accepting, portInUse } from "../../src/runtime/port-check.js";
import { isThisMachine, thisMachineAddresses } from "../../src/runtime/this-machine.js";
import { freePort } from "../helpers/scenario-files.js";

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Listens on `port` at `host`, closed after the test. */
async function listen(port: number, host: string): Promise<void> {
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
}

/** The `hostname` the URL parser makes of a base URL's host, as the runner sees it. */
const hostnameOf = (host: string): string => new URL(`http://${host}:8080/v1`).hostname;

const interfaceAddresses = Object.values(networkInterfaces())
  .flatMap((entries) => entries ?? [])
  .map((entry) => entry.address);

describe("what counts as this machine", () => {
  it.each([
    ["127.0.0.1", ["127.0.0.1"]],
    ["127.1", ["127.0.0.1"]],
    ["0177.0.0.1", ["127.0.0.1"]],
    ["0x7f.1", ["127.0.0.1"]],
    ["127.0.0.1.", ["127.0.0.1"]],
    ["127.5.6.7", ["127.5.6.7"]],
    ["0.0.0.0", ["0.0.0.0"]],
    ["0", ["0.0.0.0"]],
    ["localhost", ["127.0.0.1", "::1"]],
    ["LOCALHOST.", ["127.0.0.1", "::1"]],
    ["api.localhost", ["127.0.0.1", "::1"]],
    ["[::1]", ["::1"]],
    ["[0:0:0:0:0:0:0:1]", ["::1"]],
    ["[::]", ["::"]],
    ["[::ffff:127.0.0.1]", ["::ffff:7f00:1"]],
    ["[::ffff:7f00:1]", ["::ffff:7f00:1"]],
    ["[0:0:0:0:0:ffff:7f00:1]", ["::ffff:7f00:1"]],
    ["[::ffff:127.9.9.9]", ["::ffff:7f09:909"]],
    ["[::ffff:0.0.0.0]", ["::ffff:0:0"]],
  ])("base URL host %s stands for this machine at %j", async (host, addresses) => {
    expect(await thisMachineAddresses(hostnameOf(host))).toEqual(addresses);
  });

  it.each([
    "203.0.113.7",
    "[2001:db8::7]",
    "[::ffff:203.0.113.7]",
    // IPv4-compatible (not mapped): no system routes it to the loopback.
    "[::7f00:1]",
    "name.invalid",
  ])("base URL host %s is not this machine", async (host) => {
    expect(interfaceAddresses).not.toContain(hostnameOf(host).replace(/^\[|\]$/g, ""));
    expect(await thisMachineAddresses(hostnameOf(host))).toEqual([]);
  });

  it("counts the addresses of this machine's own network interfaces, also IPv4-mapped", () => {
    for (const address of interfaceAddresses) {
      expect(isThisMachine(address.replace(/%.*$/, ""))).toBe(true);
      if (address.includes(".")) expect(isThisMachine(`::ffff:${address}`)).toBe(true);
    }
  });
});

describe("the taken-port check", () => {
  const spellings = [
    "127.0.0.1",
    "127.1",
    "0177.0.0.1",
    "127.0.0.1.",
    "0.0.0.0",
    "localhost",
    "[::1]",
    "[::]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[::ffff:0.0.0.0]",
  ];

  it.each(spellings)("finds a foreign listener behind %s", async (host) => {
    const port = await freePort();
    await listen(port, "127.0.0.1");
    await listen(port, "::1");
    expect(await portInUse(`http://${host}:${port}/v1`)).toBe(port);
  });

  it.each(spellings)("finds the port of %s free when nothing listens there", async (host) => {
    const port = await freePort();
    expect(await portInUse(`http://${host}:${port}/v1`)).toBeNull();
  });

  it("finds an IPv4-mapped base URL's port taken by a listener on the IPv4 loopback only", async () => {
    const port = await freePort();
    await listen(port, "127.0.0.1");
    expect(await portInUse(`http://[::ffff:127.0.0.1]:${port}`)).toBe(port);
    expect(await portInUse(`http://[::ffff:7f00:1]:${port}`)).toBe(port);
  });

  const ownAddress = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .find((entry) => entry.family === "IPv4" && !entry.internal)?.address;

  it.skipIf(ownAddress === undefined)(
    "finds a foreign listener on one of this machine's interface addresses, also IPv4-mapped",
    async () => {
      const port = await freePort();
      await listen(port, ownAddress as string);
      expect(await portInUse(`http://${ownAddress}:${port}`)).toBe(port);
      expect(await portInUse(`http://[::ffff:${ownAddress}]:${port}`)).toBe(port);
    },
  );

  it("does not judge a port on another machine", async () => {
    expect(await portInUse("http://203.0.113.7:8080")).toBeNull();
  });
});

/**
 * Holds the event loop past the probe's 500 ms limit: when it turns again, the limit's timer and
 * the probe's answer are both due, and the answer must win.
 */
function holdEventLoop(): void {
  const until = performance.now() + 800;
  while (performance.now() < until) {
    // busy on purpose
  }
}

describe("a probe whose time limit passes while the process is busy", () => {
  it("still reads a refused port as free when the refusal was already waiting", async () => {
    const port = await freePort();
    const probe = accepting("127.0.0.1", port);
    holdEventLoop();
    expect(await probe).toBe(false);
  });

  it("reads a listening port as in use after the same stall", async () => {
    const port = await freePort();
    await listen(port, "127.0.0.1");
    const probe = accepting("127.0.0.1", port);
    holdEventLoop();
    expect(await probe).toBe(true);
  });
});
