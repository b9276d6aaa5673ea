import { mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CassetteBuilder,
  CassetteError,
  type Interaction,
  keptResponseHeaders,
  ReplayMatcher,
  readCassette,
  redactEventText,
  redactJsonText,
  requestShape,
} from "../../src/replay/cassette.js";

const HASH_A = "a".repeat(64);
const HASH_B = "b".repeat(64);
const OWNER = { dependency: "llm", protocol: "http" as const };

function interaction(over: { [K in keyof Interaction]?: Interaction[K] | undefined } = {}): Interaction {
  const made: Record<string, unknown> = {
    method: "POST",
    path: "/v1/chat",
    query_hash: HASH_A,
    body_hash: HASH_A,
    request_shape: {},
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"answer":1}',
    ...over,
  };
  for (const key of Object.keys(made)) if (made[key] === undefined) delete made[key];
  return made as unknown as Interaction;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cassette-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function written(interactions: Interaction[]): Promise<string> {
  const builder = new CassetteBuilder({
    dependency: "llm",
    protocol: "http",
    match: ["method", "path", "body"],
    appendTo: null,
  });
  for (const item of interactions) builder.add(item);
  const path = join(dir, "llm.jsonl");
  await builder.write(path);
  return path;
}

async function problemOf(text: string | Buffer): Promise<CassetteError> {
  const path = join(dir, "bad.jsonl");
  await writeFile(path, text);
  const error = await readCassette(path, "bad.jsonl", OWNER).catch((e: unknown) => e);
  if (!(error instanceof CassetteError)) throw new Error(`expected a CassetteError, got ${String(error)}`);
  return error;
}

describe("cassette file", () => {
  it("writes a header and one line per interaction, keys in the documented order, and reads them back", async () => {
    const events = [
      { offset_ms: 0, text: "data: 1\n\n" },
      { offset_ms: 12.5, text: "data: 2\n\n" },
    ];
    const path = await written([
      interaction({ headers: { "x-request-id": "r1", "content-type": "application/json" } }),
      interaction({
        body: undefined,
        events,
        headers: { "content-type": "text/event-stream" },
      }),
    ]);
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(Object.keys(JSON.parse(lines[0] as string))).toEqual([
      "cassette",
      "dependency",
      "protocol",
      "recorded_at",
      "agentchaos_version",
      "match",
      "salt",
    ]);
    const first = JSON.parse(lines[1] as string);
    expect(Object.keys(first)).toEqual([
      "method",
      "path",
      "query_hash",
      "body_hash",
      "request_shape",
      "status",
      "headers",
      "body",
    ]);
    expect(Object.keys(first.headers)).toEqual(["content-type", "x-request-id"]);
    const cassette = await readCassette(path, "llm.jsonl", OWNER);
    expect(cassette.header).toMatchObject({ cassette: 1, dependency: "llm", protocol: "http" });
    expect(cassette.interactions[1]?.events).toEqual(events);
  });

  it("names the file and line of a truncated, edited, foreign or unknown-version cassette", async () => {
    const path = await written([interaction(), interaction()]);
    const text = await readFile(path, "utf8");
    const cut = await problemOf(text.slice(0, text.length - 10));
    expect(cut.code).toBe("CASSETTE_INVALID");
    expect(cut.line).toBe(3);
    expect(cut.message).toMatch(/^cassette bad\.jsonl, line 3: /);

    const lines = text.split("\n");
    const edited = [...lines];
    edited[2] = (edited[2] as string).replace('"status":200', '"status":"200"');
    expect((await problemOf(edited.join("\n"))).line).toBe(3);
    const extraKey = [...lines];
    extraKey[1] = (extraKey[1] as string).replace('{"method"', '{"secret":1,"method"');
    expect((await problemOf(extraKey.join("\n"))).message).toMatch(/line 2: .*unknown key/);

    const foreign = [...lines];
    foreign[0] = (foreign[0] as string).replace('"dependency":"llm"', '"dependency":"crm"');
    expect((await problemOf(foreign.join("\n"))).message).toMatch(/line 1: .*dependency "crm", not "llm"/);
    const otherProtocol = [...lines];
    otherProtocol[0] = (otherProtocol[0] as string).replace('"protocol":"http"', '"protocol":"mcp"');
    expect((await problemOf(otherProtocol.join("\n"))).message).toMatch(/line 1: .*protocol mcp/);
    const future = [...lines];
    future[0] = (future[0] as string).replace('"cassette":1', '"cassette":7');
    expect((await problemOf(future.join("\n"))).message).toMatch(
      /line 1: cassette format version 7 is not known/,
    );
    const notJson = [...lines];
    notJson[2] = "not json at all";
    expect((await problemOf(notJson.join("\n"))).message).toMatch(/line 3: not a JSON line/);
    expect((await problemOf("")).message).toMatch(/line 1: the file is empty/);
  });

  it("reads a JSON Lines file whose whole last line has no line end, and names a last line cut short", async () => {
    const path = await written([interaction({ body: "first" }), interaction({ body: "second" })]);
    const text = await readFile(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    await writeFile(path, text.slice(0, -1));
    const cassette = await readCassette(path, "llm.jsonl", OWNER);
    expect(cassette.interactions.map((item) => item.body)).toEqual(["first", "second"]);
    const headerOnly = text.split("\n")[0] as string;
    await writeFile(path, headerOnly);
    expect((await readCassette(path, "llm.jsonl", OWNER)).interactions).toEqual([]);

    const cut = await problemOf(text.slice(0, -12));
    expect(cut.code).toBe("CASSETTE_INVALID");
    expect(cut.line).toBe(3);
    expect(cut.message).toMatch(/^cassette bad\.jsonl, line 3: .*cut short/);
  });

  it("refuses a gigabyte of garbage quickly, reading no more than one line's limit", async () => {
    const path = join(dir, "huge.jsonl");
    await writeFile(path, "");
    await truncate(path, 1024 * 1024 * 1024);
    const error = await readCassette(path, "huge.jsonl", OWNER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CassetteError);
    expect((error as CassetteError).message).toMatch(/^cassette huge\.jsonl, line 1: longer than/);
  });

  it("reports a missing cassette with its own code", async () => {
    const error = await readCassette(join(dir, "none.jsonl"), "none.jsonl", OWNER).catch((e: unknown) => e);
    expect((error as CassetteError).code).toBe("CASSETTE_MISSING");
  });

  it("appends only the interactions whose key is new, keeping the salt", async () => {
    const path = await written([interaction({ body: "first" })]);
    const previous = await readCassette(path, "llm.jsonl", OWNER);
    const builder = new CassetteBuilder({
      dependency: "llm",
      protocol: "http",
      match: ["method", "path", "body"],
      appendTo: previous,
    });
    builder.add(interaction({ body: "again" }));
    builder.add(interaction({ body_hash: HASH_B, body: "new 1" }));
    builder.add(interaction({ body_hash: HASH_B, body: "new 2" }));
    expect(builder.salt).toBe(previous.header.salt);
    expect(builder.recorded).toBe(2);
    expect(builder.interactions.map((item) => item.body)).toEqual(["first", "new 1", "new 2"]);
  });
});

describe("matching", () => {
  it("serves the n-th interaction of a key to its n-th request, then the last one again", async () => {
    const matcher = new ReplayMatcher(
      await readCassette(
        await written([
          interaction({ body: "one" }),
          interaction({ body_hash: HASH_B, body: "other" }),
          interaction({ body: "two" }),
        ]),
        "llm.jsonl",
        OWNER,
      ),
    );
    const request = { method: "post", path: "/v1/chat", query_hash: HASH_B, body_hash: HASH_A };
    expect([1, 2, 3, 4].map(() => matcher.next(request)?.body)).toEqual(["one", "two", "two", "two"]);
    expect(matcher.next({ ...request, body_hash: HASH_B })?.body).toBe("other");
    expect(matcher.next({ ...request, path: "/v1/other" })).toBeNull();
  });

  it("names the pointers where a body differs from the nearest recorded one, never a value", async () => {
    const builder = new CassetteBuilder({
      dependency: "llm",
      protocol: "http",
      match: ["method", "path", "body"],
      appendTo: null,
    });
    const recordedBody = Buffer.from(
      JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    );
    builder.add(interaction({ request_shape: requestShape(recordedBody, builder.salt) }));
    builder.add(
      interaction({
        body_hash: HASH_B,
        request_shape: requestShape(Buffer.from(JSON.stringify({ other: true })), builder.salt),
      }),
    );
    const path = join(dir, "llm.jsonl");
    await builder.write(path);
    expect(await readFile(path, "utf8")).not.toContain("hi");
    const matcher = new ReplayMatcher(await readCassette(path, "llm.jsonl", OWNER));
    const live = Buffer.from(JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello" }] }));
    expect(matcher.nearest("POST", "/v1/chat", live)).toEqual({
      found: true,
      pointers: ["/messages/0/content"],
    });
    expect(matcher.nearest("POST", "/v1/else", live)).toEqual({ found: false, pointers: [] });
  });
});

describe("request shape, response headers and redaction", () => {
  it("salts every hash, so the same value under two salts hashes differently", () => {
    const body = Buffer.from('{"password":"1234"}');
    const one = requestShape(body, "0".repeat(32));
    const two = requestShape(body, "1".repeat(32));
    expect(Object.keys(one)).toEqual(["/password"]);
    expect(one["/password"]).not.toBe(two["/password"]);
    expect(requestShape(Buffer.from("plain text"), "0".repeat(32))).toHaveProperty([""]);
    expect(requestShape(null, "0".repeat(32))).toEqual({});
  });

  it("keeps only allowlisted response headers", () => {
    expect(
      keptResponseHeaders({
        "Content-Type": "application/json",
        "retry-after": "2",
        "retry-after-ms": "2000",
        "x-ratelimit-limit-requests": "10",
        "x-ratelimit-remaining-tokens": "5",
        "x-request-id": "abc",
        "set-cookie": ["a=1"],
        "x-api-key": "k",
        authorization: "Bearer s",
        server: "x",
      }),
    ).toEqual({
      "content-type": "application/json",
      "retry-after": "2",
      "retry-after-ms": "2000",
      "x-ratelimit-limit-requests": "10",
      "x-request-id": "abc",
    });
  });

  it("redacts pointers in JSON bodies and in each event's JSON data", () => {
    expect(redactJsonText('{"a":{"token":"s"},"b":1}', ["/a/token", "/missing"])).toBe(
      '{"a":{"token":"[redacted]"},"b":1}',
    );
    expect(redactJsonText("not json", ["/a"])).toBe("not json");
    expect(redactEventText('event: x\ndata: {"k":"s"}\r\n\r\n', ["/k"])).toBe(
      'event: x\ndata: {"k":"[redacted]"}\r\n\r\n',
    );
  });
});

describe("cassette JSON Schema", () => {
  it("compiles strictly and accepts every line the writer writes, refusing a line with a request value", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = JSON.parse(
      await readFile(new URL("../../schema/cassette.schema.json", import.meta.url), "utf8"),
    );
    const ajv = new Ajv2020({
      strictSchema: true,
      strictTypes: true,
      strictTuples: true,
      allowUnionTypes: true,
    });
    const validate = ajv.compile(schema);
    const path = await written([
      interaction(),
      interaction({ body: undefined, events: [{ offset_ms: 1, text: "data: x\n\n" }] }),
      interaction({ body: undefined, body_base64: "AAE=" }),
    ]);
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    for (const line of lines) expect(validate(JSON.parse(line)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...JSON.parse(lines[1] as string), request_headers: { authorization: "x" } })).toBe(
      false,
    );
  });
});
