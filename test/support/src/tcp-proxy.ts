// A loopback TCP proxy between a store's client and its real server, that a test freezes, cuts or drops
// as a failing network would; or, in `silent` mode, a server that accepts connections and never answers.
import net from "node:net";

export interface TcpProxy {
  /** The server's URL (a connection string), with its host and port pointing at the proxy. */
  readonly url: string;
  /** Connections whose client side has not closed yet (a client that ended or destroyed its socket no longer counts). */
  readonly openConnections: number;
  /** Stops forwarding both ways, for good: what either side sends from now on is lost, and no connection closes. */
  freeze(): void;
  /** Destroys every connection through the proxy, as a dropped network would; new ones still pass. */
  destroyConnections(): void;
  /** Forwards `bytes` more bytes from the client, then destroys every connection: a cut mid-command. */
  cutAfter(bytes: number): void;
  /** Resolves when the proxy next accepts a connection (a client reconnecting). */
  nextConnection(): Promise<void>;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

/** A proxy to `targetUrl`'s host and port, or, with `silent`, a server that answers nothing at all. */
export async function startTcpProxy(targetUrl: string, mode: "forward" | "silent" = "forward"): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const openClients = new Set<net.Socket>();
  let isFrozen = mode === "silent";
  let cutBudget = Number.POSITIVE_INFINITY;
  let connectionWaiters: (() => void)[] = [];
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("close", () => sockets.delete(socket));
  };
  const destroyConnections = () => {
    for (const socket of sockets) socket.destroy();
  };
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    track(client);
    openClients.add(client);
    const closedByClient = () => openClients.delete(client);
    client.once("end", closedByClient);
    client.once("close", closedByClient);
    for (const resolve of connectionWaiters) resolve();
    connectionWaiters = [];
    // Read and drop what the client sends, so its end of the connection is seen.
    if (mode === "silent") return void client.resume();
    const upstream = net.connect({ host: target.hostname, port: Number(target.port), allowHalfOpen: true });
    track(upstream);
    let isCut = false;
    client.on("data", (chunk: Buffer) => {
      if (isFrozen || isCut) return;
      if (chunk.length < cutBudget) {
        cutBudget -= chunk.length;
        upstream.write(chunk);
        return;
      }
      // The server gets the first part of this command, then every connection goes.
      isCut = true;
      upstream.write(chunk.subarray(0, cutBudget), destroyConnections);
      cutBudget = Number.POSITIVE_INFINITY;
    });
    upstream.on("data", (chunk: Buffer) => void (isFrozen || client.write(chunk)));
    client.on("end", () => void (isFrozen || upstream.end()));
    upstream.on("end", () => void (isFrozen || client.end()));
    client.on("close", () => void (isFrozen || upstream.destroy()));
    upstream.on("close", () => void (isFrozen || client.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    get openConnections() {
      return openClients.size;
    },
    freeze: () => void (isFrozen = true),
    destroyConnections,
    cutAfter: (bytes) => void (cutBudget = bytes),
    nextConnection: () => new Promise<void>((resolve) => connectionWaiters.push(resolve)),
    close: async () => {
      destroyConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
