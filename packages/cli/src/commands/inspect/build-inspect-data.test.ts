// The inspect page's data, built without a browser: a transcript's replayed timeline and a stored journal's receipts.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContextLockedError, createContextManager, type EventHandler, type Message } from "@ctxkit/core";
import { canListCompactions } from "@ctxkit/core/kit";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { JsonlFileStore } from "@ctxkit/context-persistent";
import { afterAll, describe, expect, it } from "vitest";
import { managerFromConfig } from "../replay/configurations.js";
import { inspectStored, inspectTranscript } from "./build-inspect-data.js";
import { readStoredSession } from "./stored-session.js";
import { CATEGORIES } from "./view-categories.js";

const folder = mkdtempSync(join(tmpdir(), "ctxkit-inspect-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const session: Message[] = [
  systemMessage("You are a coding agent."),
  ...Array.from({ length: 12 }, (_, index) => sampleTurn(index, 1_200)).flat(),
];
const truncate = {
  configuration: "truncate",
  create: (onEvent: EventHandler) => managerFromConfig({ preset: "truncate" }, onEvent),
  budget: 1_200,
};

describe("inspectTranscript", () => {
  it("should record a request before each assistant message, its view by category within the budget", async () => {
    const data = await inspectTranscript({ label: "demo", format: "jsonl", messages: session }, truncate);
    const assistants = session.filter((message, index) => message.role === "assistant" && index > 0).length;
    expect(data.requests).toHaveLength(assistants);
    expect(data.categories.map((category) => category.key)).toEqual([...CATEGORIES]);
    for (const request of data.requests) {
      expect(request.tokens).toHaveLength(CATEGORIES.length);
      expect(request.tokens.reduce((sum, tokens) => sum + tokens, 0)).toBe(request.total);
      expect(request.refused || request.total <= data.budget).toBe(true);
      expect(session[request.at]!.role).toBe("assistant");
    }
    // The system prompt is in every view, and tool calls and results are counted apart from the assistant's text.
    const last = data.requests.at(-1)!;
    expect(last.tokens[CATEGORIES.indexOf("instructions")]).toBeGreaterThan(0);
    expect(data.requests.some((request) => request.tokens[CATEGORIES.indexOf("toolCalls")]! > 0)).toBe(true);
    expect(data.requests.some((request) => request.tokens[CATEGORIES.indexOf("toolResults")]! > 0)).toBe(true);
  });

  it("should mark the cached prefix: a request that did not compact begins with the whole previous view", async () => {
    const data = await inspectTranscript({ label: "demo", format: "jsonl", messages: session }, truncate);
    const steady = data.requests.filter((request, index) => index > 0 && !request.compacted && !data.requests[index - 1]!.refused);
    expect(steady.length).toBeGreaterThan(0);
    for (const request of steady) {
      const previous = data.requests[data.requests.indexOf(request) - 1]!;
      expect(request.sharedPrefix.messages).toBe(previous.viewLength);
      expect(request.sharedPrefix.tokens).toBe(previous.total);
    }
  });

  it("should keep every compaction's receipt at the request that made it, with the view before and after", async () => {
    const data = await inspectTranscript({ label: "demo", format: "jsonl", messages: session }, truncate);
    expect(data.compactions.length).toBeGreaterThan(0);
    data.compactions.forEach((compaction, index) => {
      const request = data.requests[compaction.request!]!;
      expect(request.compaction).toBe(index);
      expect(request.compacted).toBe(true);
      expect(compaction.after!.reduce((sum, tokens) => sum + tokens, 0)).toBe(request.total);
      expect(compaction.before!.reduce((sum, tokens) => sum + tokens, 0)).toBeGreaterThan(request.total);
      expect(compaction.receipt.fates.at(-1)!.to).toBe(compaction.receipt.historyLength - 1);
    });
  });

  it("should give each message its form and reason from explainView: the oldest dropped by truncate, the system prompt protected", async () => {
    const data = await inspectTranscript({ label: "demo", format: "jsonl", messages: session }, truncate);
    expect(data.messages).toHaveLength(session.length);
    expect(data.messages[0]).toMatchObject({ role: "system", form: "verbatim", why: "protected" });
    expect(data.messages[1]).toMatchObject({ text: "question 0", form: "dropped", why: "dropped", strategy: "truncate" });
    expect(data.messages.at(-1)).toMatchObject({ form: "verbatim", text: "answer 11" });
    expect(data.messages[2]!.text).toBe('read_file({"path":"call_0.txt"})');
    expect(data.next!.budget).toBe(truncate.budget);
  });
});

describe("inspectStored", () => {
  it("should list a journal's stored receipts, explain its next view and say that its timeline is derived", async () => {
    const store = new JsonlFileStore({ directory: folder, sessionId: "stored" });
    const writer = await createContextManager({ store, preset: "truncate" });
    for (const message of session) {
      if (message.role === "assistant") await writer.getMessagesForRequest({ tokenBudget: 1_200 });
      await writer.addMessage(message);
    }
    if (!canListCompactions(writer)) throw new Error("the engine keeps receipts");
    const stored = await writer.listCompactions();
    await writer.close();
    expect(stored.length).toBeGreaterThan(0);

    const journal = readFileSync(join(folder, "stored.jsonl"));
    const read = await readStoredSession({ kind: "journal", file: join(folder, "stored.jsonl") }, { preset: "truncate" }, undefined);
    // Read, never written: the journal is byte for byte what the writer left.
    expect(readFileSync(join(folder, "stored.jsonl")).equals(journal)).toBe(true);
    expect(read.history).toEqual(session);
    expect(read.budget).toBe(1_200);
    const data = await inspectStored(
      { kind: "journal", label: "stored.jsonl", session: read },
      { configuration: "truncate", create: truncate.create, budget: 1_200 },
    );
    expect(data.compactions.map((compaction) => compaction.receipt.id)).toEqual(stored.map((summary) => summary.id));
    expect(data.timelineNote).toContain("derived by replaying its 49 messages through truncate");
    expect(data.requests.length).toBeGreaterThan(0);
    expect(data.messages[1]).toMatchObject({ form: "dropped", strategy: "truncate" });
  });

  it("should refuse a journal that does not exist rather than create it", async () => {
    await expect(readStoredSession({ kind: "journal", file: join(folder, "absent.jsonl") }, {}, undefined)).rejects.toThrow(
      /absent\.jsonl does not exist/,
    );
  });
});

describe("readStoredSession on a journal in use", () => {
  it("should refuse a journal another manager holds open, naming it, instead of reading a line being written", async () => {
    const writer = await createContextManager({ store: new JsonlFileStore({ directory: folder, sessionId: "busy" }) });
    try {
      await writer.addMessage({ role: "user", content: "hello" });
      const reading = readStoredSession({ kind: "journal", file: join(folder, "busy.jsonl") }, {}, undefined);
      await expect(reading).rejects.toBeInstanceOf(ContextLockedError);
      await expect(reading).rejects.toThrow(/busy\.jsonl/);
    } finally {
      await writer.close();
    }
  });
});
