// Test-only: outcomes of generated cases pinned by digest to a fixture, so a change meant to be invisible
// (a cheaper path, a cache) must give every view, receipt and explanation byte for byte.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { expect } from "vitest";
import type { ContextEngine } from "../src/engine/context-engine.js";

/** A small seeded generator (mulberry32), so a case's history is the same on every run. */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Every receipt the manager keeps, oldest first, without its id and time (which differ on every run). */
export async function receiptsWithoutIds(manager: ContextEngine): Promise<unknown[]> {
  const receipts = [];
  for (const { id } of await manager.listCompactions()) {
    const { id: _id, at: _at, ...receipt } = (await manager.getCompaction(id))!;
    receipts.push(receipt);
  }
  return receipts;
}

/**
 * Expects each case's outcome (JSON) to have the digest the fixture holds under its label. With
 * `${updateVariable}=1` in the environment it rewrites the fixture instead: after a change meant to
 * alter the outcomes, say why in the commit.
 */
export async function expectPinnedDigests<Case>(
  fixture: URL,
  updateVariable: string,
  cases: readonly Case[],
  label: (given: Case) => string,
  outcome: (given: Case) => Promise<string>,
): Promise<void> {
  const digests: Record<string, string> = {};
  for (const given of cases)
    digests[label(given)] = createHash("sha256")
      .update(await outcome(given))
      .digest("hex");
  if (process.env[updateVariable] === "1") writeFileSync(fixture, `${JSON.stringify(digests, null, 2)}\n`);
  expect(digests).toEqual(JSON.parse(readFileSync(fixture, "utf8")));
}
