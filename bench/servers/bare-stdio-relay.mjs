// The floor of a line relay like the MCP stdio shim, for the shim benchmark: spawns the server
// given after `--`, passes the agent's bytes to it untouched and hands each of the server's
// lines to the agent. With `--channel PATH` each line first makes the same round trip the shim
// makes for an answer's evidence: one small message to a socket, and the line goes on when the
// socket says so. No parsing, no recording: only the process hops.
import { spawn } from "node:child_process";
import { connect } from "node:net";

const separator = process.argv.indexOf("--");
const options = process.argv.slice(2, separator);
const [command, ...args] = process.argv.slice(separator + 1);
const channelPath = options[0] === "--channel" ? options[1] : null;

const server = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(server.stdin);
server.on("exit", (code) => process.exit(code ?? 1));

const waiting = [];
const channel = channelPath === null ? null : connect(channelPath);
channel?.on("data", (chunk) => {
  for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) {
    process.stdout.write(waiting.shift());
  }
});

let held = [];
server.stdout.on("data", (chunk) => {
  let start = 0;
  for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
    const line = Buffer.concat([...held, chunk.subarray(start, newline + 1)]);
    held = [];
    start = newline + 1;
    if (channel === null) process.stdout.write(line);
    else {
      waiting.push(line);
      channel.write('{"type":"response"}\n');
    }
  }
  if (start < chunk.length) held.push(chunk.subarray(start));
});
