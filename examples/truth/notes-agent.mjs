#!/usr/bin/env node
// A notes agent on the official MCP SDK: it reads the note "retries" and files a summary of it as
// a new note. NOTES_AGENT=naive trusts what read_note says. NOTES_AGENT=careful reads the note
// twice and, when the two answers differ, a third time, and uses only a text two reads agree on
// (it never sends a text it doubts anywhere). Prints the note's first words (naive) or a
// character count (careful). Exit 0 when the summary is saved.
import { connectNotes, resultText } from "../mcp/connect.mjs";

const careful = process.env.NOTES_AGENT === "careful";
const client = await connectNotes(`${careful ? "careful" : "naive"}-notes-agent`);
const read = async () =>
  resultText(await client.callTool({ name: "read_note", arguments: { title: "retries" } }));
/** The text two reads agree on (at most three reads). */
async function confirmedText() {
  const first = await read();
  const second = await read();
  if (first === second) return first;
  const third = await read();
  if (third === first || third === second) return third;
  throw new Error("the note could not be confirmed");
}

const text = careful ? await confirmedText() : await read();
if (careful) process.stdout.write(`Read the note: ${text.length} characters\n`);
else process.stdout.write(`The note says: ${text.slice(0, 60)}\n`);
await client.callTool({ name: "add_note", arguments: { title: "summary", text: `Summary: ${text}` } });
process.stdout.write("Summary saved\n");
await client.close();
