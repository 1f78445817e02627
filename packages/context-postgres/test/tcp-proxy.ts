// A loopback TCP proxy between node-postgres and the real server, that a test freezes as a dead network
// would (nothing forwarded either way, no connection closed); or, without a target, a server that
// accepts connections and never answers.
import net from "node:net";

export interface TcpProxy {
  /** `connectionString` with its host and port pointing at the proxy. */
  readonly url: string;
  /** Connections whose client side has not closed yet (a client that ended or destroyed its socket no longer counts). */
  readonly openConnections: number;
  /** Stops forwarding, both ways, for good; connections stay open. */
  freeze(): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

/** A proxy to `connectionString`'s server, or, with `silent`, a server that answers nothing at all. */
export async function startTcpProxy(connectionString: string, mode: "forward" | "silent" = "forward"): Promise<TcpProxy> {
  const target = new URL(connectionString);
  const sockets = new Set<net.Socket>();
  const openClients = new Set<net.Socket>();
  let isFrozen = mode === "silent";
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("close", () => sockets.delete(socket));
  };
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    track(client);
    openClients.add(client);
    const closedByClient = () => openClients.delete(client);
    client.once("end", closedByClient);
    client.once("close", closedByClient);
    // Read and drop what the client sends, so its end of the connection is seen.
    if (mode === "silent") return void client.resume();
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432), allowHalfOpen: true });
    track(upstream);
    client.on("data", (chunk: Buffer) => void (isFrozen || upstream.write(chunk)));
    upstream.on("data", (chunk: Buffer) => void (isFrozen || client.write(chunk)));
    client.on("end", () => void (isFrozen || upstream.end()));
    upstream.on("end", () => void (isFrozen || client.end()));
    client.on("close", () => void (isFrozen || upstream.destroy()));
    upstream.on("close", () => void (isFrozen || client.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(connectionString);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    get openConnections() {
      return openClients.size;
    },
    freeze: () => void (isFrozen = true),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
