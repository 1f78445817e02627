import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it, type ExpectStatic } from "vitest";
import { fixturesOf } from "@ctxkit/test-support/fixture-process";
import { createSeededRandom } from "@ctxkit/test-support/seeded-random";
import { createPersistentContext } from "./create-persistent-context.js";
import type { Durability } from "./message-store.js";

const { startFixture, removeFixtureBundles } = fixturesOf(new URL("../", import.meta.url), ["zod"]);

afterAll(removeFixtureBundles);

// Reproduce a failure with CTXKIT_CRASH_SEED=<the seed printed in it>.
const seed = Number(process.env.CTXKIT_CRASH_SEED ?? Date.now() % 2_147_483_647);

interface CrashReport {
  readonly kills: number;
  readonly acknowledged: number;
  readonly recoveredTails: number;
}

/**
 * Starts a child that appends to one session, kills it with SIGKILL at a random moment, reopens the
 * session here and checks it, `kills` times over. Every check: the journal opens; the history is the
 * previous one plus a run of this child's messages 0, 1, 2… with no gap, in order; and that run
 * covers every index the child printed as resolved. Under `batch` only the group being written at the
 * kill may be missing, and never a resolved one: resolved means on disk, in every mode but `none`,
 * where resolved means handed to the OS, which a killed process cannot take back.
 */
async function crashRepeatedly(expect: ExpectStatic, durability: Durability, kills: number): Promise<CrashReport> {
  // Its own folder, not useTempDirectories: the modes run concurrently, and that helper empties every folder after each test.
  const storagePath = await mkdtemp(join(tmpdir(), `ctxkit-crash-${durability}-`));
  try {
    return await killAndCheck(expect, storagePath, durability, kills);
  } finally {
    await rm(storagePath, { recursive: true, force: true });
  }
}

async function killAndCheck(expect: ExpectStatic, storagePath: string, durability: Durability, kills: number): Promise<CrashReport> {
  // One generator per mode, so a seed replays the same kills whichever test runs first.
  const random = createSeededRandom(seed + durability.length);
  let history: string[] = [];
  let acknowledged = 0;
  let recoveredTails = 0;
  for (let run = 0; run < kills; run += 1) {
    const runId = `run${run}`;
    const child = await startFixture("append-child", [storagePath, "session", durability, runId]);
    // Most kills land while appending; one in five lands anywhere, opening and recovery included.
    if (run % 5 === 4) await sleep(random() * 250);
    else await child.waitForLine((line) => line === "ready").then(() => sleep(random() * 120));
    child.child.kill("SIGKILL");
    await child.exited;

    const resolved = child.lines.filter((line) => /^\d+$/.test(line)).map(Number);
    const highest = resolved.length === 0 ? -1 : Math.max(...resolved);
    let recovered = 0;
    const manager = await createPersistentContext({
      storagePath,
      sessionId: "session",
      tokenizer: "estimate",
      onEvent: (event) => void (event === "context:recover" && (recovered += 1)),
    });
    // "run3:17", without the padding: short enough to print when a check fails.
    const contents = (await manager.getMessages()).map((message) => String(message.content).split(":").slice(0, 2).join(":"));
    await manager.close();

    const context = `(seed ${seed}, ${durability}, kill ${run})`;
    expect(contents.slice(0, history.length), `earlier history changed ${context}`).toEqual(history);
    const added = contents.slice(history.length);
    expect(added, `this run's messages, in order, with no gap ${context}`).toEqual(added.map((_, index) => `${runId}:${index}`));
    expect(added.length, `every resolved add is present ${context}`).toBeGreaterThan(highest);
    history = contents;
    acknowledged += resolved.length;
    recoveredTails += recovered;
  }
  return { kills, acknowledged, recoveredTails };
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

// The modes run side by side: each child spends most of its life starting up or waiting on fsync.
describe.concurrent("crash safety, with a real child process killed by SIGKILL", () => {
  const reports: Array<CrashReport & { durability: Durability }> = [];

  afterAll(() => {
    for (const report of reports) {
      console.info(
        `crash test (seed ${seed}) ${report.durability}: ${report.kills} kills, ${report.acknowledged} resolved adds checked, ${report.recoveredTails} torn tails cut at reopen`,
      );
    }
  });

  it.for([
    ["always", 50],
    ["batch", 30],
    ["none", 10],
  ] as const)(
    "should keep every resolved add, in order, under %s, across %i kills",
    { timeout: 120_000 },
    async ([durability, kills], { expect }) => {
      const report = await crashRepeatedly(expect, durability, kills);
      reports.push({ durability, ...report });
      expect(report.acknowledged).toBeGreaterThan(0);
    },
  );
});
