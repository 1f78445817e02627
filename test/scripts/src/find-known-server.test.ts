import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findKnownServer, isListening, SERVERS } from "../../../scripts/test.mjs";

const postgres = SERVERS[0] as (typeof SERVERS)[number];
let root: string;
let listener: Server | undefined;

/** A port something listens on now, and one nothing does (a closed listener's). */
async function listen(): Promise<number> {
  listener = createServer();
  await new Promise<void>((resolve) => listener?.listen(0, "127.0.0.1", resolve));
  return (listener.address() as { port: number }).port;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function writeEnvFile(url: string): void {
  mkdirSync(join(root, ".tmp"), { recursive: true });
  writeFileSync(join(root, postgres.envFile), `${postgres.variable}=${url}\n`);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctxkit-find-server-"));
});

afterEach(async () => {
  await new Promise((resolve) => (listener ? listener.close(resolve) : resolve(undefined)));
  listener = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe("findKnownServer", () => {
  it("should take the URL variable as given, without probing it, as .ci/run's servers are", async () => {
    const url = `postgres://ctxkit@127.0.0.1:${await closedPort()}/ctxkit`;
    expect(await findKnownServer(postgres, { env: { [postgres.variable]: url }, root })).toEqual({ source: "environment", url });
  });

  it("should take the server the env file names when it answers", async () => {
    const url = `postgres://ctxkit@127.0.0.1:${await listen()}/ctxkit`;
    writeEnvFile(url);
    expect(await findKnownServer(postgres, { env: {}, root })).toEqual({ source: "file", url });
  });

  it("should not take an env file whose server is gone, so a new one is started", async () => {
    writeEnvFile(`postgres://ctxkit@127.0.0.1:${await closedPort()}/ctxkit`);
    expect(await findKnownServer(postgres, { env: {}, root })).toBeUndefined();
  });

  it("should find nothing without a variable or an env file", async () => {
    expect(await findKnownServer(postgres, { env: {}, root })).toBeUndefined();
  });
});

describe("isListening", () => {
  it("should say false for a URL it cannot read", async () => {
    expect(await isListening("not a url", 5432)).toBe(false);
  });
});
