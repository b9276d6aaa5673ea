// nginx (one worker) as a reference reverse proxy, when it is installed: its own config in a temp
// folder, keep-alive to the upstream, no access log. Started in the foreground, stopped by pid.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { spawnTracked, stopChild } from "./processes.mjs";
import { makeTempDir, removeTempDir } from "./temp-dirs.mjs";

const CANDIDATES = ["nginx", "/usr/sbin/nginx", "/usr/local/sbin/nginx"];

/** The nginx executable, or null when none runs. */
export function findNginx() {
  for (const candidate of CANDIDATES) {
    if (spawnSync(candidate, ["-v"], { stdio: "ignore" }).status === 0) return candidate;
  }
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, timeoutMs = 5000) {
  const { connect } = await import("node:net");
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`nginx did not listen on ${port} within ${timeoutMs} ms`);
}

/** Starts nginx in front of `upstreamUrl`; resolves with { url, pid, stop() }. */
export async function startNginx(executable, upstreamUrl) {
  const dir = makeTempDir("agentchaos-bench-nginx-");
  // Workers may run as an unprivileged user: they must reach the temp paths.
  chmodSync(dir, 0o755);
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(join(dir, sub));
    chmodSync(join(dir, sub), 0o777);
  }
  const port = await freePort();
  const upstream = new URL(upstreamUrl);
  writeFileSync(
    join(dir, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${join(dir, "body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  upstream bench_upstream {
    server ${upstream.hostname}:${upstream.port};
    keepalive 256;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    location / {
      proxy_pass http://bench_upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`,
  );
  const child = spawnTracked(executable, [
    "-p",
    dir,
    "-c",
    join(dir, "nginx.conf"),
    "-e",
    join(dir, "error.log"),
  ]);
  try {
    await waitForPort(port);
  } catch (error) {
    await stopChild(child);
    removeTempDir(dir);
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      await stopChild(child);
      removeTempDir(dir);
    },
  };
}
