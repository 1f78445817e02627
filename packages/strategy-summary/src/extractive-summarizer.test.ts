import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, call, result, user } from "../test/messages.js";
import { extractiveSummarizer } from "./extractive-summarizer.js";

const signal = new AbortController().signal;
const summarize = (messages: Message[], previousSummary?: string, maxTokens?: number) =>
  extractiveSummarizer()({ messages, previousSummary, instructions: "", signal, ...(maxTokens === undefined ? {} : { maxTokens }) });

describe("extractiveSummarizer", () => {
  describe("content", () => {
    it("should keep the user's requests, the assistant's notes and count tool calls, but not tool output", async () => {
      const text = await summarize([
        user("Fix the   login\nbug"),
        call("read_file", ["a"]),
        result("a", "SECRET OUTPUT"),
        assistant("The token expired early."),
      ]);
      expect(text).toContain("- Fix the login bug");
      expect(text).toContain("- The token expired early.");
      expect(text).toContain("Tool calls: 1 (read_file 1)");
      expect(text).not.toContain("SECRET OUTPUT");
    });

    it("should keep the newest requests when they do not all fit, and say how many it left out", async () => {
      const messages = Array.from({ length: 40 }, (_, index) => user(`request number ${index} `.padEnd(120, "x")));
      const text = await summarize(messages, undefined, 300);
      expect(text).toContain("request number 39");
      expect(text).not.toContain("request number 0 ");
      expect(text).toMatch(/\(\d+ earlier not shown\)/);
    });

    it("should summarize a user message whose caller tagged it with metadata.ctxkit (regression: it was skipped)", async () => {
      const imported: Message = { role: "user", content: "Migrate the billing tables", metadata: { ctxkit: { source: "import" } } };
      expect(await summarize([imported, assistant("Started with invoices.")])).toContain("- Migrate the billing tables");
    });

    it("should be non-empty even with nothing to keep", async () => {
      expect(await summarize([result("a", "x")])).toBe("Tool calls: 0");
    });

    it("should keep a previous summary it did not write, shortened, instead of dropping it", async () => {
      const text = await summarize([user("next")], "## Goal\nShip the release");
      expect(text).toContain("Earlier summary: ## Goal Ship the release");
      expect(text).toContain("- next");
    });
  });

  describe("incremental updates", () => {
    const textArbitrary = fc.oneof(fc.constantFrom("", "fix it", "请帮我修复这个错误", "👩‍💻 done", "a\nb"), fc.string({ maxLength: 700 }));
    const messageArbitrary: fc.Arbitrary<Message> = fc.oneof(
      textArbitrary.map(user),
      textArbitrary.map(assistant),
      fc.constantFrom("read_file", "Edit", "bash").map((name) => call(name, ["id"])),
    );

    it("should give the same summary extended in steps as written at once", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(messageArbitrary, { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
          fc.integer({ min: 20, max: 600 }),
          async (chunks, maxTokens) => {
            let stepwise: string | undefined;
            for (const chunk of chunks) stepwise = await summarize(chunk, stepwise, maxTokens);
            expect(stepwise).toBe(await summarize(chunks.flat(), undefined, maxTokens));
          },
        ),
      );
    });
  });

  it("should honour an aborted signal", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      extractiveSummarizer()({ messages: [], previousSummary: undefined, instructions: "", signal: controller.signal }),
    ).rejects.toThrow("stop");
  });
});
