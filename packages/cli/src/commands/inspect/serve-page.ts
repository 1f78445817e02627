// Serves one page on 127.0.0.1 at a port the system picks, until the signal aborts or the process gets SIGTERM.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ServedPage {
  readonly url: string;
  /** Resolves once the server has stopped. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Starts serving `html` at `/`; everything else is a 404. Loopback only: the page holds a session's messages. */
export async function servePage(html: string): Promise<ServedPage> {
  const body = Buffer.from(html, "utf8");
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if ((request.method === "GET" || request.method === "HEAD") && (path === "/" || path === "/index.html")) {
      response.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-length": body.length,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      });
      response.end(request.method === "HEAD" ? undefined : body);
      return;
    }
    response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    response.end("Not found: the page is at /\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}/`,
    closed,
    close() {
      server.closeAllConnections();
      server.close();
      return closed;
    },
  };
}

/** Waits until `signal` aborts or the process is sent SIGTERM (Ctrl-C aborts the command's signal). */
export function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.removeListener("SIGTERM", stop);
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    process.once("SIGTERM", stop);
    if (signal?.aborted === true) stop();
    else signal?.addEventListener("abort", stop, { once: true });
  });
}
