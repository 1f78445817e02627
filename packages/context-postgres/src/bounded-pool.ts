// A store's connection pool, bounded in time, with a way to cut every connection at once.
import net from "node:net";
import pg from "pg";

/** The bounds when the options give none; the README and SECURITY.md state them. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

export interface PoolBounds {
  readonly maxConnections: number;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
}

/**
 * How much later than the server's own statement timeout the client stops waiting for an answer: a live
 * server cancels the statement first (the clearer report); only a frozen network or a stuck server
 * leaves the client's timer to fire.
 */
const CLIENT_TIMEOUT_MARGIN_MS = 1_000;

/** Resolves `true` once `promise` settles, or `false` after `timeoutMs`, whichever comes first. */
export function settlesWithin(promise: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, timeoutMs));
    const settled = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settled, settled);
  });
}

export class BoundedPool {
  readonly pool: pg.Pool;
  /** Every socket a connection of the pool runs over, until it closes. */
  private readonly sockets = new Set<net.Socket>();

  constructor(connectionString: string, bounds: PoolBounds) {
    this.pool = new pg.Pool({
      connectionString,
      max: bounds.maxConnections,
      // Connecting, including the server's startup answer, and waiting for a free connection.
      connectionTimeoutMillis: bounds.connectTimeoutMs,
      // The server's bounds: a statement, and a transaction whose client went silent (so its row locks are freed).
      statement_timeout: bounds.statementTimeoutMs,
      idle_in_transaction_session_timeout: bounds.statementTimeoutMs,
      // The client's own bound, for when the network never delivers the server's answer.
      query_timeout: bounds.statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
      keepAlive: true,
      stream: () => this.track(new net.Socket()),
    });
    // An idle connection the server drops must not crash the process: the next query reports it.
    this.pool.on("error", () => {});
  }

  /** Ends the pool, waiting at most `timeoutMs` for its connections to say goodbye; then cuts those left. */
  async end(timeoutMs: number): Promise<void> {
    const ended = this.pool.end().catch(() => {});
    if (!(await settlesWithin(ended, timeoutMs))) this.cut();
  }

  /** Destroys every connection's socket now: whatever each was waiting for fails at once. */
  cut(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  private track(socket: net.Socket): net.Socket {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    return socket;
  }
}
