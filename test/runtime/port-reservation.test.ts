import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freeLoopbackPort } from "../../src/runtime/free-port.js";
import { PortReservations } from "../../src/runtime/port-reservation.js";
import { testFolder } from "../helpers/cli.js";

const dir = testFolder("each");

describe("port reservations", () => {
  it("keep a port from another process's reservations while fresh, and free it after the hold", () => {
    const folder = join(dir.path, "ports");
    let now = Date.now();
    const mine = new PortReservations(folder, () => now, 60_000);
    const other = new PortReservations(folder, () => now, 60_000);
    expect(mine.reserve(24_001)).toBe(true);
    expect(readFileSync(join(folder, "24001"), "utf8")).toBe(String(process.pid));
    expect(other.reserve(24_001)).toBe(false);
    expect(other.reserve(24_002)).toBe(true);
    // A reservation whose holder was killed stops counting once its hold has passed.
    now += 61_000;
    expect(other.reserve(24_001)).toBe(true);
    other.release(24_001);
    other.release(24_002);
    mine.release(24_001);
    expect(existsSync(join(folder, "24001"))).toBe(false);
    expect(existsSync(join(folder, "24002"))).toBe(false);
  });

  it("are released for the next choice", () => {
    const folder = join(dir.path, "ports");
    const first = new PortReservations(folder);
    const second = new PortReservations(folder);
    expect(first.reserve(24_003)).toBe(true);
    first.release(24_003);
    expect(second.reserve(24_003)).toBe(true);
    second.release(24_003);
  });

  it("make two processes that draw the same random port get different ones", async () => {
    const folder = join(dir.path, "ports");
    const sameDraw = () => 0.5;
    const first = new PortReservations(folder);
    const second = new PortReservations(folder);
    const a = await freeLoopbackPort({ random: sameDraw, reservations: first });
    let draws = 0;
    const b = await freeLoopbackPort({ random: () => (draws++ === 0 ? 0.5 : 0.25), reservations: second });
    expect(b).not.toBe(a);
    expect(draws).toBe(2);
    first.release(a);
    second.release(b);
  });

  it.runIf(process.platform === "linux")(
    "lie below the ephemeral range the OS gives to outgoing connections and listen(0)",
    async () => {
      const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
        .trim()
        .split(/\s+/)
        .map(Number);
      const reservations = new PortReservations(join(dir.path, "ports"));
      for (let pick = 0; pick < 20; pick++) {
        const port = await freeLoopbackPort({ reservations });
        expect(port).toBeGreaterThanOrEqual(20_000);
        expect(port).toBeLessThan(low as number);
        reservations.release(port);
      }
    },
  );

  it("choose without reservations where their folder cannot be written", () => {
    const file = join(dir.path, "a-file");
    writeFileSync(file, "");
    const blocked = new PortReservations(join(file, "ports"));
    expect(blocked.reserve(24_004)).toBe(true);
    blocked.release(24_004);
  });
});
