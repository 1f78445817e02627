import { describe, expect, it } from "vitest";
import { createTestContext, createTestView, systemMessage, toolResultMessage, userMessage } from "../../test/strategy-context.js";
import { createContextManager } from "../engine/create-context-manager.js";
import type { Message } from "../messages/message.js";
import { isSummaryEntry } from "../messages/summary-coverage.js";
import { createViewDraft } from "../pipeline/view-draft.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { checkToolPairs } from "../units/check-tool-pairs.js";
import { truncate } from "./truncate.js";

/** An assistant call whose arguments name `path` (its key, `file_path`, names the parameter, not the session's work). */
const readCall = (id: string, path: string): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name: "read", arguments: JSON.stringify({ file_path: path }) } }],
});

/** One turn: a question, a read of `path` and its result naming `symbol`. */
const turn = (step: number, path: string, symbol: string): Message[] => [
  userMessage(`step ${step}: look at the file`),
  readCall(`call_${step}`, path),
  toolResultMessage(`call_${step}`, `export function ${symbol}() {} ${"padding ".repeat(30)}`),
];

const notesOf = (messages: readonly Message[]) =>
  messages.filter((message) => message.metadata?.ctxkit?.["droppedIdentifiers"] !== undefined);

describe("truncate's note of dropped identifiers", () => {
  const history = [
    systemMessage("rules"),
    ...turn(0, "src/alpha/first_file.ts", "parseAlpha"),
    ...turn(1, "src/beta/second_file.ts", "parseBeta"),
    ...turn(2, "src/gamma/third_file.ts", "parseGamma"),
  ];

  it("should leave one summary entry where the dropped units stood, naming what they held and not what the view still shows", async () => {
    const view = createTestView(history);
    const result = await truncate({ noteIdentifiers: 20 }).apply(
      view,
      createTestContext({ target: Math.floor(view.tokens / 2), budget: 10_000 }),
    );
    const entries = result.view.entries;
    expect(entries[0]!.message.role).toBe("system");
    expect(isSummaryEntry(entries[1]!)).toBe(true);
    const text = entries[1]!.message.content as string;
    expect(text).toContain("src/alpha/first_file.ts");
    expect(text).toContain("parseAlpha");
    // Argument keys name the tool's parameters, and what the kept turn shows needs no listing.
    expect(text).not.toContain("file_path");
    expect(text).not.toContain("src/gamma/third_file.ts");
    expect(entries.filter(isSummaryEntry)).toHaveLength(1);
    expect(result.view.tokens).toBeLessThanOrEqual(Math.floor(view.tokens / 2));
    expect(checkToolPairs(entries.map((entry) => entry.message))).toEqual([]);
  });

  it("should read at most two budgets' worth of the newest drops, so a history many times the budget is not read whole", async () => {
    const turns = Array.from({ length: 40 }, (_, step) => turn(step, `src/part_${step}/file_${step}.ts`, `symbol${step}Name`)).flat();
    const view = createTestView([systemMessage("rules"), ...turns]);
    const turnTokens = view.entries.slice(1, 4).reduce((sum, entry) => sum + entry.tokens, 0);
    // The budget holds about four turns: the last turn stays, and the note names only the drops two budgets' worth reads.
    const budget = turnTokens * 4;
    const result = await truncate({ noteIdentifiers: 200 }).apply(view, createTestContext({ target: turnTokens * 2, budget }));
    const text = notesOf(result.view.entries.map((entry) => entry.message))[0]!.content as string;
    expect(text).toContain("src/part_38/file_38.ts");
    expect(text).not.toContain("src/part_0/file_0.ts");
    expect(text).not.toContain("src/part_20/file_20.ts");
    // Every drop is still counted, read or not.
    expect(text).toMatch(/^\[\d+ earlier messages were dropped/);
    expect(Number(/^\[(\d+)/.exec(text)![1])).toBeGreaterThan(100);
  });

  it("should replace its previous note on the next truncation, newest drops first, rather than add another", async () => {
    const longer = [
      ...history,
      ...turn(3, "src/delta/fourth_file.ts", "parseDelta"),
      ...turn(4, "src/epsilon/fifth_file.ts", "parseEpsilon"),
    ];
    const view = createTestView(longer);
    // The first truncation takes the first turn (a question, a call and its result), the second what is then oldest.
    const firstTurn = view.entries.slice(1, 4).reduce((sum, entry) => sum + entry.tokens, 0);
    const first = await truncate({ noteIdentifiers: 20 }).apply(
      view,
      createTestContext({ target: view.tokens - firstTurn, budget: 10_000 }),
    );
    expect(first.view.entries.filter(isSummaryEntry)).toHaveLength(1);
    const second = await truncate({ noteIdentifiers: 20 }).apply(
      createViewDraft(first.view.entries),
      createTestContext({ target: first.view.tokens - 1, budget: 10_000 }),
    );
    const notes = second.view.entries.filter(isSummaryEntry);
    expect(notes).toHaveLength(1);
    expect(second.view.entries.indexOf(notes[0]!)).toBe(1);
    const text = notes[0]!.message.content as string;
    const kept = second.view.entries.filter((entry) => entry.source.kind === "history");
    // The newer drop (the second turn) is listed before the older one, and the count covers both truncations.
    expect(text).toContain("src/beta/second_file.ts");
    expect(text.indexOf("src/alpha/first_file.ts")).toBeGreaterThan(text.indexOf("src/beta/second_file.ts"));
    expect(text).toMatch(new RegExp(`^\\[${longer.length - kept.length} earlier messages`));
  });

  it("should list at most one identifier per budgetTokensPerIdentifier tokens of the budget", async () => {
    const view = createTestView(history);
    const result = await truncate({ noteIdentifiers: 20, budgetTokensPerIdentifier: 5_000 }).apply(
      view,
      createTestContext({ target: Math.floor(view.tokens / 2), budget: 10_000 }),
    );
    const note = result.view.entries.find(isSummaryEntry)!;
    expect((note.message.content as string).split(": ")[1]!.split(", ")).toHaveLength(2);
  });

  it("should leave no note without noteIdentifiers", async () => {
    const view = createTestView(history);
    const result = await truncate().apply(view, createTestContext({ target: Math.floor(view.tokens / 2) }));
    expect(result.view.entries.some(isSummaryEntry)).toBe(false);
  });

  it("should keep one note across a session's compactions, with the dropped messages told as dropped by truncate", async () => {
    const manager = await createContextManager({
      store: new MemoryMessageStore(),
      tokenizer: "estimate",
      maxTokens: 2_000,
      strategies: [{ name: "truncate", options: { noteIdentifiers: 40 } }],
    });
    await manager.addMessage(systemMessage("rules"));
    for (let step = 0; step < 30; step += 1) {
      for (const message of turn(step, `src/module_${step}/file_${step}.ts`, `handler${step}Run`)) await manager.addMessage(message);
      const view = await manager.getMessagesForRequest();
      expect(notesOf(view).length).toBeLessThanOrEqual(1);
      expect(checkToolPairs(view)).toEqual([]);
    }
    const view = await manager.getMessagesForRequest();
    expect(notesOf(view)).toHaveLength(1);
    expect(notesOf(view)[0]!.content).toContain("src/module_0/file_0.ts");
    const explanation = await manager.explainView();
    const gone = explanation.messages.filter((message) => !message.inView);
    expect(gone.length).toBeGreaterThan(0);
    for (const message of gone) expect(message).toMatchObject({ form: "dropped", strategy: "truncate" });
    expect(explanation.synthetic).toHaveLength(1);
    // The note is no history message: the whole history is still there.
    expect(await manager.getMessages()).toHaveLength(91);
  });
});
