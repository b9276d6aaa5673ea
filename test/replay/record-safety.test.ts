import { execFileSync } from "node:child_process";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runBuiltCli, testFolder } from "../helpers/cli.js";

const folder = testFolder("each");

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A self-signed certificate for 127.0.0.1 that is its own CA. */
function selfSigned(dir: string): { key: string; cert: string } {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2"].concat([
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ]),
    { stdio: "ignore" },
  );
  return { key, cert };
}

const SECRETS = {
  bearer: "SECRET-bearer-7f3a",
  apiKey: "SECRET-apikey-91bc",
  query: "SECRET-query-55de",
  body: "SECRET-body-c0ff",
  userinfo: "SECRET-userinfo-a1a1",
  env: "SECRET-env-b2b2",
  cookie: "SECRET-cookie-d3d3",
  responseKey: "SECRET-responsekey-e4e4",
};

const AGENT = `
const url = process.env.AGENTCHAOS_API_URL;
const response = await fetch(url + "/v1/items?token=${SECRETS.query}&page=1", {
  method: "POST",
  headers: { authorization: "Bearer ${SECRETS.bearer}", "x-api-key": "${SECRETS.apiKey}", "content-type": "application/json" },
  body: JSON.stringify({ item: 1, password: "${SECRETS.body}", planted: process.env.PLANTED }),
});
const json = await response.json();
process.stdout.write("status " + response.status + " reply " + json.reply + "\\n");
process.exit(response.ok ? 0 : 1);
`;

let upstream: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (upstream === null ? resolve() : upstream.close(() => resolve())));
  upstream = null;
});

async function allFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await allFiles(full)));
    else found.push(full);
  }
  return found;
}

describe("recording over TLS with planted secrets", () => {
  it.skipIf(!hasOpenssl())(
    "records an https upstream trusted through NODE_EXTRA_CA_CERTS, replays it, and writes no secret anywhere",
    async () => {
      const { key, cert } = selfSigned(folder.path);
      const seen: { authorization?: string | undefined; body?: string } = {};
      upstream = createServer(
        { key: await readFile(key), cert: await readFile(cert) },
        (request, response) => {
          let body = "";
          request.on("data", (chunk) => (body += chunk));
          request.on("end", () => {
            seen.authorization = request.headers.authorization;
            seen.body = body;
            response.writeHead(200, {
              "content-type": "application/json",
              "set-cookie": `session=${SECRETS.cookie}`,
              "x-api-key": SECRETS.responseKey,
              "x-request-id": "req-1",
            });
            response.end(JSON.stringify({ reply: "hello over tls" }));
          });
        },
      );
      await new Promise<void>((resolve) => upstream?.listen(0, "127.0.0.1", resolve));
      const port = (upstream.address() as AddressInfo).port;
      await writeFile(join(folder.path, "agent.mjs"), AGENT);
      await writeFile(
        join(folder.path, "scenario.yaml"),
        `schema_version: 2
name: tls-record
dependencies:
  api:
    type: http
    base_url: https://user:${SECRETS.userinfo}@127.0.0.1:${port}
    replay:
      cassette: cassettes/api.jsonl
workload:
  command: [${JSON.stringify(process.execPath)}, agent.mjs]
  env:
    PLANTED: ${SECRETS.env}
success:
  exit_code: 0
timeout_seconds: 30
`,
      );
      const recorded = await runBuiltCli(["record", "scenario.yaml", "--output-dir", "runs"], {
        cwd: folder.path,
        env: { NODE_EXTRA_CA_CERTS: cert },
      });
      expect(recorded.stderr).toBe("");
      expect(recorded.code).toBe(0);
      expect(recorded.stdout).toMatch(/api: 1 interactions -> cassettes\/api\.jsonl/);
      // The live upstream got the request as the agent sent it.
      expect(seen.authorization).toBe(`Bearer ${SECRETS.bearer}`);
      expect(seen.body).toContain(SECRETS.body);

      await new Promise<void>((resolve) => upstream?.close(() => resolve()));
      upstream = null;
      const replayed = await runBuiltCli(["run", "scenario.yaml", "--output-dir", "replayed"], {
        cwd: folder.path,
      });
      expect(replayed.code).toBe(0);
      const outputs = await Promise.all(
        ["runs", "replayed"].map(async (dir) => {
          const [run] = await readdir(join(folder.path, dir));
          return readFile(join(folder.path, dir, run as string, "stdout.log"), "utf8");
        }),
      );
      expect(outputs[0]).toBe("status 200 reply hello over tls\n");
      expect(outputs[1]).toBe(outputs[0]);

      const cassette = await readFile(join(folder.path, "cassettes", "api.jsonl"), "utf8");
      expect(JSON.parse(cassette.split("\n")[1] as string).headers).toEqual({
        "content-type": "application/json",
        "x-request-id": "req-1",
      });
      // Every artifact but the run folders' copy of the scenario file (the user's own input).
      const artifacts = [
        join(folder.path, "cassettes", "api.jsonl"),
        ...(await allFiles(join(folder.path, "runs"))),
        ...(await allFiles(join(folder.path, "replayed"))),
      ].filter((file) => !file.endsWith("scenario.yaml"));
      expect(artifacts.length).toBeGreaterThan(6);
      const texts = [recorded.stdout, recorded.stderr, replayed.stdout, replayed.stderr];
      for (const file of artifacts) if ((await stat(file)).isFile()) texts.push(await readFile(file, "utf8"));
      for (const text of texts)
        for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    },
    90_000,
  );
});
