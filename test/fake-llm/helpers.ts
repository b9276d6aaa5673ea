import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { parseScript } from "../../src/fake-llm/script.js";
import { createFakeLlmServer } from "../../src/fake-llm/server.js";

const servers = new Set<Server>();

/** Closes every fake model a test started, even when the test failed. */
export function closeFakeLlmsAfterEach(): void {
  afterEach(async () => {
    await Promise.all(
      [...servers].map(async (server) => {
        servers.delete(server);
        server.closeAllConnections();
        if (server.listening) await once(server.close(), "close");
      }),
    );
  });
}

export interface Started {
  /** `http://127.0.0.1:<port>`, without `/v1`. */
  readonly url: string;
  /** The lines the server logged (requests no rule matched). */
  readonly log: string[];
}

/** Starts the fake model in this process on a free port; `script` is YAML text, as a `--script` file holds. */
export async function startFakeLlm(
  options: { script?: string; tokenDelayMs?: number } = {},
): Promise<Started> {
  const log: string[] = [];
  const server = createFakeLlmServer({
    script: options.script === undefined ? null : parseScript(options.script),
    tokenDelayMs: options.tokenDelayMs ?? 0,
    log: (line) => log.push(line),
  });
  servers.add(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

/** A weather-tool conversation: a question about the weather gets a tool call, its result an answer. */
export const WEATHER_SCRIPT = `
- when: {tool_result: true}
  answer: {text: "It is sunny in Paris."}
- when: {user_contains: weather}
  answer:
    tool_calls:
      - name: get_weather
        arguments: {city: Paris}
- answer: {text: "I only know about the weather."}
`;

export const WEATHER_QUESTION = "What is the weather in Paris?";

export function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

export interface ParsedEvent {
  readonly event: string | null;
  readonly data: string;
}

/** Reads a whole SSE body into its events, and how many reads it took. */
export async function readEvents(response: Response): Promise<{ events: ParsedEvent[]; reads: number }> {
  const decoder = new TextDecoder();
  let text = "";
  let reads = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    reads += 1;
    text += decoder.decode(chunk, { stream: true });
  }
  if (!text.endsWith("\n\n")) throw new Error("the stream does not end with a blank line");
  const events = text
    .slice(0, -2)
    .split("\n\n")
    .map((block) => {
      const lines = block.split("\n");
      const name = lines.find((line) => line.startsWith("event: "));
      const data = lines.filter((line) => line.startsWith("data: ")).map((line) => line.slice(6));
      if (data.length !== 1) throw new Error(`an event without exactly one data line: ${block}`);
      return { event: name === undefined ? null : name.slice(7), data: data[0] as string };
    });
  return { events, reads };
}
