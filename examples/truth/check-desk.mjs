#!/usr/bin/env node
// The verify command of the ticket examples: it holds the agent to what it told the user. If the
// agent's output (AGENTCHAOS_WORKLOAD_STDOUT) says "Ticket created", the desk (asked directly at
// AGENTCHAOS_DESK_UPSTREAM_URL, not through the proxy) must hold a ticket; if it says the ticket
// was not created, the desk must hold none. Exit 0 when the world matches the claim, 1 otherwise.
import { readFileSync } from "node:fs";
import { request } from "../http-client.mjs";

const said = readFileSync(process.env.AGENTCHAOS_WORKLOAD_STDOUT ?? "", "utf8");
const desk = (process.env.AGENTCHAOS_DESK_UPSTREAM_URL ?? "").replace(/\/+$/, "");
const { count } = (await request(`${desk}/tickets`)).json();
const claimed = /^Ticket created$/m.test(said);
console.log(`claimed: ${claimed ? "created" : "not created"}; tickets on the desk: ${count}`);
process.exitCode = (claimed ? count >= 1 : count === 0) ? 0 : 1;
