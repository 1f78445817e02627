// A JSON HTTP server on 127.0.0.1 (port 0) that records each request and answers through a handler.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Server-sent events instead of a JSON body: each a whole frame (`event: …\ndata: …\n\n`), written in order. */
  events?: readonly string[];
  /** Writes only this many of `events`, then holds the connection open until the client leaves (or the server closes). */
  stallAfter?: number;
}

export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** What the imitation answered. */
  response?: unknown;
  /** The prompt's tokens as the imitated provider counts them, when it got that far. */
  promptTokens?: number;
}

export interface LoopbackServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export type Handler = (path: string, body: Record<string, unknown>, record: RecordedRequest) => Reply;

export async function startLoopbackServer(handle: Handler, invalidJson: (text: string) => Reply): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (request, response) => {
    const text = await readBody(request);
    let reply: Reply;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = {};
    }
    const record: RecordedRequest = { path: request.url ?? "", body, status: 0, headers: request.headers };
    try {
      reply = typeof body !== "object" || body === null || Array.isArray(body) ? invalidJson(text) : handle(record.path, body, record);
    } catch (error) {
      reply = { status: 500, body: { error: { message: String(error), type: "server_error" } } };
    }
    record.status = reply.status;
    record.response = reply.body;
    requests.push(record);
    if (reply.events !== undefined) {
      response.writeHead(reply.status, { "content-type": "text/event-stream", "cache-control": "no-cache", ...reply.headers });
      const written = reply.events.slice(0, reply.stallAfter ?? reply.events.length);
      response.write(written.join(""));
      if (reply.stallAfter === undefined) response.end();
      return;
    }
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // A stalled stream's connection would hold the close forever.
        server.closeAllConnections();
      }),
  };
}
