// A throwaway redis-server of a test's own on loopback, started with a password (requirepass): the server
// the shared test server is not, for checking what a wrong user or password reports.
import { spawn } from "node:child_process";
import net from "node:net";
import { Redis } from "ioredis";

export interface PasswordRedisServer {
  /** `redis://127.0.0.1:<port>`, without the password. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `redis-server` with `requirepass password` on a free port, and resolves once it answers AUTH. */
export async function startPasswordRedisServer(password: string): Promise<PasswordRedisServer> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--requirepass", password],
    {
      stdio: "ignore",
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    const client = new Redis({ host: "127.0.0.1", port, password, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => {});
    const isUp = await client.connect().then(
      () => client.ping().then(() => true),
      () => false,
    );
    client.disconnect();
    if (isUp) break;
    if (attempt === 100) {
      child.kill("SIGKILL");
      throw new Error(`redis-server with a password did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    port,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
