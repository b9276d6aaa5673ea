#!/usr/bin/env node
// An example agent with one write: it opens a support ticket on the fake API (`POST /tickets`),
// calls again when the call fails without an answer (a transport error), then reads how many
// tickets the API holds (`GET /tickets`) and prints it.
// Reads AGENTCHAOS_DESK_URL. Knobs: TICKET_ATTEMPTS (default 2), TICKET_RETRY_DELAY_MS (pause
// before calling again, default 200), TICKET_IDEMPOTENCY_KEY=yes (send one `Idempotency-Key` with
// every attempt, so the API can tell a repeat from a new ticket).
// Exit codes: 0 ticket opened, 1 gave up, 2 bad configuration. Prints fixed words and counts only.
import { randomUUID } from "node:crypto";
import { request } from "./http-client.mjs";

function usage(message) {
  process.stderr.write(`ticket-agent: ${message}\n`);
  process.exit(2);
}

const desk = (process.env.AGENTCHAOS_DESK_URL ?? "").replace(/\/+$/, "");
if (desk === "") usage("AGENTCHAOS_DESK_URL is required");
function knob(name, fallback) {
  const raw = process.env[name] || String(fallback);
  if (!/^\d+$/.test(raw)) usage(`${name} must be a non-negative integer`);
  return Number(raw);
}
const attempts = Math.max(1, knob("TICKET_ATTEMPTS", 2));
const retryDelayMs = knob("TICKET_RETRY_DELAY_MS", 200);
const headers = { "Content-Type": "application/json" };
if (process.env.TICKET_IDEMPOTENCY_KEY === "yes") headers["Idempotency-Key"] = randomUUID();
const body = JSON.stringify({ title: "Customer cannot log in", priority: "high" });

async function openTicket() {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await request(`${desk}/tickets`, { method: "POST", headers, body, timeoutMs: 5000 });
      if (response.status !== 201) throw new Error(`status ${response.status}`);
      return response.json().id;
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.log(`Ticket call ${attempt} got no answer; calling again`);
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
    }
  }
}

try {
  const id = await openTicket();
  const { count } = (await request(`${desk}/tickets`)).json();
  console.log(`Opened ticket ${id}`);
  console.log(`Tickets on the server: ${count}`);
} catch {
  process.stderr.write("ticket-agent: could not open the ticket\n");
  process.exitCode = 1;
}
