// A loopback TCP proxy between a client and the Redis server that a test can freeze or cut, as a network would.
import { createServer, connect, type Socket } from "node:net";

export interface TcpProxy {
  /** The server's URL, through the proxy. */
  readonly url: string;
  /** Stops forwarding both ways: what either side sends from now on is lost, and no connection closes. */
  freeze(): void;
  /** Destroys every connection through the proxy, as a dropped network would; new ones still pass. */
  destroyConnections(): void;
  /** Forwards `bytes` more bytes from the client, then destroys every connection: a cut mid-command. */
  cutAfter(bytes: number): void;
  /** Resolves when the proxy next accepts a connection (a client reconnecting). */
  nextConnection(): Promise<void>;
  close(): Promise<void>;
}

/** Listens on a free loopback port and forwards each connection to `targetUrl`'s host and port. */
export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let isFrozen = false;
  let budget = Number.POSITIVE_INFINITY;
  let connectionWaiters: (() => void)[] = [];
  const destroyConnections = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const resolve of connectionWaiters) resolve();
    connectionWaiters = [];
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    let isCut = false;
    client.on("data", (chunk: Buffer) => {
      if (isFrozen || isCut) return;
      if (chunk.length < budget) {
        budget -= chunk.length;
        upstream.write(chunk);
        return;
      }
      // The server gets the first part of this command, then the connection goes.
      isCut = true;
      upstream.write(chunk.subarray(0, budget), () => destroyConnections());
      budget = Number.POSITIVE_INFINITY;
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!isFrozen) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no port");
  const url = new URL(targetUrl);
  url.host = `127.0.0.1:${address.port}`;
  return {
    url: url.toString(),
    freeze: () => void (isFrozen = true),
    destroyConnections,
    cutAfter: (bytes) => void (budget = bytes),
    nextConnection: () => new Promise<void>((resolve) => connectionWaiters.push(resolve)),
    close: async () => {
      destroyConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
