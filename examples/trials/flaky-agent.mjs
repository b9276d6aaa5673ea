#!/usr/bin/env node
// The trials example's agent: it looks customer 123 up through $AGENTCHAOS_PROXY_URL and, when
// the answer is an error, retries once — but only on every other run. It counts its runs in a
// counter file ($FLAKY_AGENT_COUNTER, default `flaky-agent.count` in the system's temporary
// folder): odd-numbered runs retry, even-numbered runs carry on without the customer and still
// exit 0. So over any N consecutive runs exactly floor(N / 2) of them skip the retry, whichever
// run starts the series and however many run at once (the counter is taken under a lock).
// Exit codes: 0 done, 2 bad configuration. Prints fixed words, never payloads.
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "../http-client.mjs";

const base = process.env.AGENTCHAOS_PROXY_URL;
if (base === undefined || base === "") {
  process.stderr.write("flaky-agent: AGENTCHAOS_PROXY_URL is required\n");
  process.exit(2);
}
const counter = process.env.FLAKY_AGENT_COUNTER || join(tmpdir(), "flaky-agent.count");

/** This run's number: the counter file's value plus one, written back under a lock folder. */
function takeRunNumber() {
  const lock = `${counter}.lock`;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST" || attempt > 2000) throw error;
      Atomics.wait(pause, 0, 0, 5);
    }
  }
  try {
    let count = 0;
    try {
      count = Number(readFileSync(counter, "utf8")) || 0;
    } catch {
      // The first run.
    }
    writeFileSync(counter, String(count + 1));
    return count + 1;
  } finally {
    rmdirSync(lock);
  }
}

async function lookUp() {
  const response = await request(`${base.replace(/\/+$/, "")}/customer/123`, { timeoutMs: 2000 });
  return response.ok;
}

const run = takeRunNumber();
const retries = run % 2 === 1;
let found = await lookUp().catch(() => false);
if (!found && retries) {
  console.log("Lookup failed; retrying");
  await new Promise((resolve) => setTimeout(resolve, 50));
  found = await lookUp().catch(() => false);
}
console.log(found ? `Run ${run}: customer 123 found` : `Run ${run}: went on without customer 123`);
