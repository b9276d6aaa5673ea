import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { fixtureDependency, freePort, writeScenario, yamlList } from "../helpers/scenario-files.js";

const SECRETS = {
  userInfo: "planted-user-info-Zk39",
  authorization: "planted-bearer-token-Qw81",
  query: "planted-query-value-Hx27",
  body: "planted-body-value-Lm55",
  environment: "planted-env-value-Tr64",
};

const dir = testFolder("each");

describe("planted secrets", () => {
  it("appear in no file or terminal line that Agent Chaos itself generates", async () => {
    const port = await freePort();
    const agent = join(dir.path, "secret-agent.mjs");
    // Sends every secret through the proxy, twice (the second request hits the 503 and is retried), and prints nothing.
    await writeFile(
      agent,
      `const url = process.env.AGENTCHAOS_PROXY_URL;
for (let attempt = 0; attempt < 3; attempt++) {
  const response = await fetch(url + "/customer/1?token=${SECRETS.query}", {
    method: "POST",
    headers: { authorization: "Bearer ${SECRETS.authorization}", "content-type": "application/json" },
    body: JSON.stringify({ secret: "${SECRETS.body}" }),
  });
  await response.text();
}
`,
    );
    const dependency = fixtureDependency(port).replace(
      `base_url: http://127.0.0.1:${port}`,
      `base_url: http://admin:${SECRETS.userInfo}@127.0.0.1:${port}/?q=${SECRETS.query}`,
    );
    const file = await writeScenario(
      dir.path,
      "secrets",
      `schema_version: 1
name: planted-secrets
${dependency}workload:
  command: ${yamlList([process.execPath, agent])}
fault:
  type: http_error
  target:
    path: /customer/*
  trigger:
    occurrence: 2
  status_code: 503
success:
  exit_code: 0
`,
    );
    const outputDir = join(dir.path, "runs");
    const run = await runBuiltCli(["run", file, "--output-dir", outputDir], {
      env: { AGENTCHAOS_PLANTED: SECRETS.environment },
    });
    expect(run.code).toBe(0);
    const runDir = onlyRunDir(outputDir);
    const generated = (await readdir(runDir)).filter(
      (name) => name === "events.jsonl" || name === "report.json",
    );
    expect(generated).toEqual(["events.jsonl", "report.json"]);
    const texts = [
      run.stdout,
      run.stderr,
      ...(await Promise.all(generated.map((n) => readFile(join(runDir, n), "utf8")))),
    ];
    const inspected = await runBuiltCli(["inspect", runDir]);
    texts.push(inspected.stdout, inspected.stderr);
    for (const text of texts) {
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).not.toContain("admin:");
    }
    // The evidence is still there: three identical POSTs, one injected, one retry that recovered.
    const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
    expect(report).toMatchObject({ result: "RECOVERED", operations_observed: 3, retries_observed: 1 });
  });
});
