// A process that takes a journal up after a long pause compacts on its first request, while the provider's cache has expired.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createContextManager } from "@ctxkit/core";
import { sampleTurn, systemMessage, userMessage } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { useTempDirectories } from "../test/temp-directory.js";
import { JsonlFileStore } from "./jsonl-file-store.js";

const { directory } = useTempDirectories();
const BUDGET = 20_000;

/** A journal of 24 turns (about 0.6 of the budget), its append times moved `pauseMs` into the past. */
async function journalWrittenBefore(folder: string, pauseMs: number): Promise<void> {
  const store = new JsonlFileStore({ directory: folder, sessionId: "chat", durability: "none" });
  const writer = await createContextManager({ store, tokenizer: "estimate" });
  await writer.addMessage(systemMessage("be brief"));
  for (let turn = 0; turn < 24; turn += 1) for (const message of sampleTurn(turn, 2_000)) await writer.addMessage(message);
  await writer.close();
  const file = join(folder, "chat.jsonl");
  const text = await readFile(file, "utf8");
  await writeFile(
    file,
    text.replace(/"at":(\d+)/g, (_, at: string) => `"at":${Number(at) - pauseMs}`),
  );
}

async function firstRequestOfResumed(folder: string) {
  const manager = await createContextManager({
    store: new JsonlFileStore({ directory: folder, sessionId: "chat" }),
    tokenizer: "estimate",
  });
  await manager.addMessage(userMessage("and now?"));
  await manager.getMessagesForRequest({ tokenBudget: BUDGET });
  const compactions = await manager.listCompactions();
  await manager.close();
  return compactions;
}

describe("a journal resumed after a pause", () => {
  it("should compact on the first request when the journal's newest append is older than the cache lives", async () => {
    const folder = await directory();
    await journalWrittenBefore(folder, 10 * 60_000);
    const [receipt] = await firstRequestOfResumed(folder);
    expect(receipt?.decision).toMatchObject({ trigger: "cache-expired", isCacheExpired: true, rewriteCost: 0 });
  });

  it("should serve the view as it is when the pause was shorter than the cache lives", async () => {
    const folder = await directory();
    await journalWrittenBefore(folder, 60_000);
    expect(await firstRequestOfResumed(folder)).toEqual([]);
  });
});
