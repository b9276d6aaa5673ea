#!/usr/bin/env node
// A ticket agent: it files one ticket on the desk and tells the user what happened.
// TICKET_AGENT=naive posts the ticket and reports "Ticket created" whatever the desk answered.
// TICKET_AGENT=careful checks the answer and, when it is not a 201, re-reads the desk to see
// whether the ticket is there before saying anything; it reports "Ticket not created" when it is
// not (and hands the case to a person) instead of claiming a success. Reads AGENTCHAOS_DESK_URL.
// Prints fixed words only. Exit 0 when it told the user the truth as it saw it.
import { request } from "../http-client.mjs";

const desk = (process.env.AGENTCHAOS_DESK_URL ?? "").replace(/\/+$/, "");
const careful = process.env.TICKET_AGENT === "careful";

const before = careful ? (await request(`${desk}/tickets`)).json().count : 0;
const response = await request(`${desk}/tickets`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ title: "Customer cannot log in", priority: "high" }),
});
if (!careful || response.status === 201) {
  console.log("Ticket created");
} else {
  const after = (await request(`${desk}/tickets`)).json().count;
  console.log(after > before ? "Ticket created" : "Ticket not created; handed to a person");
}
