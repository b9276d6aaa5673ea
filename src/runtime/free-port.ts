import { createServer } from "node:net";

/**
 * One free loopback TCP port, chosen by the OS: listen on port 0, note the port, close. The
 * port is free when this resolves; a dependency started right after takes it.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no port assigned"))));
    });
  });
}
