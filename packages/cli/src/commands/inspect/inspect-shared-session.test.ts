// `ctxkit inspect --url --session` on real PostgreSQL and Redis sessions: the receipts a worker stored, read back on the page.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContextManager, type Message } from "@ctxkit/core";
import { canListCompactions, type MessageStore } from "@ctxkit/core/kit";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { PostgresMessageStore } from "@ctxkit/context-postgres";
import { RedisMessageStore } from "@ctxkit/context-redis";
import { afterAll, expect, it } from "vitest";
import { describeWithPostgres } from "../../../../context-postgres/test/postgres-server.js";
import { describeWithRedis } from "../../../../context-redis/test/redis-server.js";
import { main } from "../../cli.js";
import type { InspectData } from "./inspect-data.js";

const session: Message[] = [
  systemMessage("You are a coding agent."),
  ...Array.from({ length: 8 }, (_, index) => sampleTurn(index, 1_200)).flat(),
];
const folder = mkdtempSync(join(tmpdir(), "ctxkit-inspect-shared-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs a worker over the session, asking for a view before each assistant message; returns the receipts' ids it stored. */
async function storeSession(store: MessageStore): Promise<string[]> {
  const manager = await createContextManager({ store, preset: "truncate" });
  try {
    for (const message of session) {
      if (message.role === "assistant") await manager.getMessagesForRequest({ tokenBudget: 1_200 });
      await manager.addMessage(message);
    }
    if (!canListCompactions(manager)) throw new Error("the engine keeps receipts");
    return (await manager.listCompactions()).map((summary) => summary.id);
  } finally {
    await manager.close();
  }
}

async function inspect(url: string, sessionId: string): Promise<{ code: number; data: InspectData; stderr: string }> {
  const file = join(folder, `${sessionId}.html`);
  let stderr = "";
  const code = await main(["inspect", "--url", url, "--session", sessionId, "--preset", "truncate", "--html", file], {
    stdout: { write: () => true },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: folder,
    signal: new AbortController().signal,
  });
  const html = readFileSync(file, "utf8");
  const start = html.indexOf(">", html.indexOf('id="inspect-data"')) + 1;
  return { code, data: JSON.parse(html.slice(start, html.indexOf("</script>", start))) as InspectData, stderr };
}

function itShowsTheStoredSession(url: () => string, open: (sessionId: string) => MessageStore): void {
  it("should list the receipts the session stores, explain its next view and derive its timeline by a replay", async () => {
    const sessionId = randomUUID();
    const stored = await storeSession(open(sessionId));
    expect(stored.length).toBeGreaterThan(0);
    const { code, data, stderr } = await inspect(url(), sessionId);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(data.compactions.map((compaction) => compaction.receipt.id)).toEqual(stored);
    expect(data.budget).toBe(1_200);
    expect(data.messages.map((message) => message.text)).toHaveLength(session.length);
    expect(data.messages[1]).toMatchObject({ text: "question 0", form: "dropped", strategy: "truncate" });
    expect(data.timelineNote).toContain("The session stores no request timeline");
    expect(data.requests.length).toBe(session.filter((message) => message.role === "assistant").length);
  });
}

describeWithPostgres("ctxkit inspect on a PostgreSQL session", (connectionString) => {
  it("should exit 2 naming --session when the session holds no messages", async () => {
    let stderr = "";
    const code = await main(["inspect", "--url", connectionString, "--session", randomUUID(), "--html", join(folder, "empty.html")], {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      cwd: folder,
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/--session: .* holds no messages: check the session id/);
  });

  itShowsTheStoredSession(
    () => connectionString,
    (sessionId) => new PostgresMessageStore({ connectionString, sessionId }),
  );
});

describeWithRedis("ctxkit inspect on a Redis session", (url) => {
  itShowsTheStoredSession(
    () => url,
    (sessionId) => new RedisMessageStore({ url, sessionId }),
  );
});
