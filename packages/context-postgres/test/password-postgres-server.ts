// A throwaway PostgreSQL server of a test's own on loopback that asks for a password (scram-sha-256): the
// shared test server trusts every connection, so only this one can refuse a wrong password.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PasswordPostgresServer {
  /** `postgres://ctxkit:<password>@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  stop(): void;
}

/** The newest installed server's bin folder, as scripts/postgres.sh finds it; undefined when there is none. */
export function findPostgresBin(): string | undefined {
  try {
    const versions = readdirSync("/usr/lib/postgresql").sort((first, second) => Number(first) - Number(second));
    return versions.length === 0 ? undefined : `/usr/lib/postgresql/${versions.at(-1)}/bin`;
  } catch {
    return undefined;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts a server whose role `ctxkit` has `password`; initdb and the server refuse root, so as root they run as `postgres`. */
export async function startPasswordPostgresServer(password: string): Promise<PasswordPostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error("No PostgreSQL installed: run `bash scripts/postgres.sh start` once, which installs it.");
  const root = mkdtempSync(join(tmpdir(), "ctxkit-postgres-password-"));
  const isRoot = process.getuid?.() === 0;
  const asOwner = (command: string, args: string[]) =>
    isRoot ? (["runuser", ["-u", "postgres", "--", command, ...args]] as const) : ([command, args] as const);
  const passwordFile = join(root, "password");
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (isRoot) {
    const owner = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim();
    chownSync(root, Number(owner), 0);
    chownSync(passwordFile, Number(owner), 0);
  }
  const run = (command: string, args: string[]) => {
    const [file, fileArgs] = asOwner(command, args);
    const result = spawnSync(file, [...fileArgs], { cwd: "/", encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  };
  run(`${bin}/initdb`, ["-D", `${root}/data`, "-U", "ctxkit", "--auth=scram-sha-256", `--pwfile=${passwordFile}`, "-E", "UTF8"]);
  const port = await freePort();
  run(`${bin}/pg_ctl`, [
    "-D",
    `${root}/data`,
    "-l",
    `${root}/server.log`,
    "-w",
    "-t",
    "60",
    "start",
    "-o",
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${root} -c fsync=off`,
  ]);
  return {
    url: `postgres://ctxkit:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => {
      run(`${bin}/pg_ctl`, ["-D", `${root}/data`, "-m", "immediate", "-w", "stop"]);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
