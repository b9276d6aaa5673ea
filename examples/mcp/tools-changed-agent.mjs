#!/usr/bin/env node
// A notes agent whose server may change its tool list mid-session (mcp_tools_changed).
//   TOOLS_AGENT=relist (default): on notifications/tools/list_changed it lists the tools again
//     before its next call, and adapts: without search_notes it reads the note by title, and it
//     fills every property a tool now requires.
//   TOOLS_AGENT=stale: it keeps the list it read first and calls search_notes anyway.
// Prints fixed words and counts, never notes or arguments. Exit 0 done, 1 a call failed.
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectNotes, resultText } from "./connect.mjs";

const relist = (process.env.TOOLS_AGENT ?? "relist") !== "stale";
const client = await connectNotes(relist ? "relisting-notes-agent" : "stale-notes-agent");
let changed = false;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
  changed = true;
  process.stdout.write("tools: list changed\n");
});

let tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
process.stdout.write(`tools: ${tools.size} listed\n`);

async function currentTools() {
  if (relist && changed) {
    changed = false;
    tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    process.stdout.write(`tools: ${tools.size} listed again\n`);
  }
  return tools;
}

/** The arguments, plus a value for every required property the agent did not know of. */
function withRequired(name, args) {
  const required = tools.get(name)?.inputSchema?.required ?? [];
  const filled = { ...args };
  for (const key of required) if (!(key in filled)) filled[key] = "requested by the notes agent";
  return filled;
}

async function call(name, args) {
  await currentTools();
  try {
    const result = await client.callTool({ name, arguments: withRequired(name, args) });
    if (result.isError === true) throw new Error("tool error");
    return resultText(result);
  } catch (error) {
    process.stdout.write(`${name}: failed (${error?.code ?? "error"})\n`);
    await client.close();
    process.exit(1);
  }
}

const titles = (await call("list_notes", {})).split("\n");
process.stdout.write(`list_notes: ${titles.length} titles\n`);
let title = "retries";
if ((await currentTools()).has("search_notes")) {
  const hits = await call("search_notes", { query: "retry" });
  title = hits.split("\n")[0] || title;
  process.stdout.write("search_notes: done\n");
} else {
  process.stdout.write("search_notes: gone, reading by title\n");
}
const note = await call("read_note", { title });
process.stdout.write(`read_note: ${note.length} characters\n`);
await call("add_note", { title: "summary", text: `Read ${titles.length} notes.` });
process.stdout.write("add_note: done\n");
await client.close();
