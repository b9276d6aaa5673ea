import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { runCliHere } from "../helpers/in-process-cli.js";
import { fixtureDependency, freePort, writeScenario, yamlList } from "../helpers/scenario-files.js";

const SECRETS = {
  userInfo: "planted-user-info-Rp20",
  authorization: "planted-bearer-token-Vb73",
  query: "planted-query-value-Kc46",
  body: "planted-body-value-Nd18",
  environment: "planted-env-value-Gs92",
};

const dir = testFolder("each");

describe("planted secrets and the reporters", () => {
  it("appear in no suite.json, JUnit, CTRF or HTML file, nor in what `report` renders", async () => {
    const port = await freePort();
    const agent = join(dir.path, "secret-agent.mjs");
    await writeFile(
      agent,
      `import { request } from "node:http";
const url = process.env.AGENTCHAOS_PROXY_URL;
const post = () =>
  new Promise((done, fail) =>
    request(
      url + "/customer/1?token=${SECRETS.query}",
      {
        method: "POST",
        headers: { authorization: "Bearer ${SECRETS.authorization}", "content-type": "application/json" },
      },
      (response) => response.resume().on("end", done),
    )
      .on("error", fail)
      .end(JSON.stringify({ secret: "${SECRETS.body}" })),
  );
for (let attempt = 0; attempt < 3; attempt++) await post();
`,
    );
    const dependency = fixtureDependency(port).replace(
      `base_url: http://127.0.0.1:${port}`,
      `base_url: http://admin:${SECRETS.userInfo}@127.0.0.1:${port}/?q=${SECRETS.query}`,
    );
    await writeScenario(
      dir.path,
      "secrets",
      `schema_version: 1
name: planted-secrets
${dependency}workload:
  command: ${yamlList([process.execPath, agent])}
  env:
    PLANTED: ${SECRETS.environment}
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
    const out = join(dir.path, "suites");
    const suite = await runBuiltCli(
      ["suite", dir.path, "--output-dir", out, "--reporter", "junit,ctrf,html"],
      {
        env: { AGENTCHAOS_PLANTED: SECRETS.environment },
      },
    );
    expect(suite.code).toBe(0);
    const [id] = await readdir(out);
    const folder = join(out, id as string);
    const [runFolder] = (await readdir(folder)).filter((name) => !name.includes("."));
    const runDir = join(folder, runFolder as string);
    const texts = [suite.stdout, suite.stderr];
    for (const name of ["suite.json", "junit.xml", "ctrf.json", "index.html"]) {
      texts.push(await readFile(join(folder, name), "utf8"));
    }
    texts.push(await readFile(join(runDir, "report.html"), "utf8"));
    // The first rendering by the built executable, the others in this process by the same CLI code.
    for (const format of ["html", "junit", "ctrf"]) {
      for (const target of [runDir, folder]) {
        const render = format === "html" && target === runDir ? runBuiltCli : runCliHere;
        const rendered = await render(["report", target, "--format", format]);
        expect(rendered.code).toBe(0);
        texts.push(rendered.stdout, rendered.stderr);
      }
    }
    expect(texts.join("\n")).toContain("planted-secrets");
    for (const text of texts) {
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).not.toContain("admin:");
    }
  });
});
