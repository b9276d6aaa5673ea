import { afterEach, describe, expect, it } from "vitest";
import { runProgram, startServer, stopAll, stopProgram } from "./helpers/programs.js";

afterEach(stopAll);

async function get(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(url, init);
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

describe("the fake API", () => {
  it("answers the health, customer, order and weather routes with the documented JSON bodies", async () => {
    const { url } = await startServer("fake-api.mjs");
    expect(await get(`${url}/health`)).toEqual({
      status: 200,
      type: "application/json",
      body: '{"status":"ok"}',
    });
    expect(await get(`${url}/customer/123`)).toEqual({
      status: 200,
      type: "application/json",
      body: '{"id":"123","name":"Ada Lovelace","tier":"gold"}',
    });
    expect(await get(`${url}/orders/7?expand=all`)).toEqual({
      status: 200,
      type: "application/json",
      body: '{"id":"7","status":"ready","total":42.0}',
    });
    expect(await get(`${url}/weather/Paris`)).toEqual({
      status: 200,
      type: "application/json",
      body: '{"city":"Paris","sky":"sunny","celsius":21}',
    });
  });

  it("answers 404 to unknown paths, nested ids and methods other than GET", async () => {
    const { url } = await startServer("fake-api.mjs");
    expect((await get(`${url}/`)).status).toBe(404);
    expect((await get(`${url}/customer/`)).status).toBe(404);
    expect((await get(`${url}/customer/1/x`)).status).toBe(404);
    expect((await get(`${url}/customers/1`)).status).toBe(404);
    expect((await get(`${url}/customer/1`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("opens tickets on POST /tickets, counts them on GET /tickets, and gives a repeated Idempotency-Key its ticket again", async () => {
    const { url } = await startServer("fake-api.mjs");
    const post = (headers: Record<string, string> = {}) =>
      get(`${url}/tickets`, { method: "POST", headers, body: '{"title":"x"}' });
    expect(await get(`${url}/tickets`)).toEqual({
      status: 200,
      type: "application/json",
      body: '{"count":0}',
    });
    expect(await post()).toEqual({ status: 201, type: "application/json", body: '{"id":1}' });
    expect((await post()).body).toBe('{"id":2}');
    expect((await post({ "Idempotency-Key": "k1" })).body).toBe('{"id":3}');
    expect((await post({ "Idempotency-Key": "k1" })).body).toBe('{"id":3}');
    expect((await get(`${url}/tickets`)).body).toBe('{"count":3}');
    expect((await get(`${url}/tickets`, { method: "DELETE" })).status).toBe(404);
  });

  it("streams the update feed on GET /events: a ready event at once, then ticks until the listener leaves", async () => {
    const { url, program } = await startServer("fake-api.mjs");
    const listener = new AbortController();
    const response = await fetch(`${url}/events`, { signal: listener.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes('{"tick":1}\n\n')) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    expect(
      text.startsWith('event: ready\ndata: {"listening":true}\n\nevent: tick\ndata: {"tick":1}\n\n'),
    ).toBe(true);
    listener.abort();
    // The server stays healthy after the listener left, and still stops cleanly.
    expect((await get(`${url}/health`)).status).toBe(200);
    expect((await get(`${url}/events`, { method: "POST" })).status).toBe(404);
    expect(await stopProgram(program, "SIGTERM")).toEqual({ code: 0, signal: null });
  });

  it("exits with code 0 on SIGTERM and on SIGINT", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const { url, program } = await startServer("fake-api.mjs");
      expect((await get(`${url}/health`)).status).toBe(200);
      expect(await stopProgram(program, signal)).toEqual({ code: 0, signal: null });
    }
  });

  it("refuses to start without --port, with exit code 2 and one line of usage", async () => {
    const result = await runProgram("fake-api.mjs");
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
