import fc from "fast-check";
import { describe, it } from "vitest";
import type { Message } from "../messages/message.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { memoryContext } from "../../test/memory-context.js";
import { createSeededRandom, expectPinnedDigests, receiptsWithoutIds } from "../../test/pinned-digests.js";

// The default pipeline's views, receipts and explanations over generated sessions, pinned byte for byte:
// making the strategies cheaper (caching, reading less) must not change what any of them gives. The
// fixture holds one SHA-256 per case; after a change meant to alter the views, rewrite it with
// UPDATE_DEFAULT_PIPELINE_VIEWS=1 and say why in the commit.
const FIXTURE = new URL("../../test/__fixtures__/default-pipeline-views.json", import.meta.url);

const WORDS = "the agent reads files runs tests and edits code while the build keeps going".split(" ");
const NAMES = ["parseConfig", "viewDraft", "tool_result", "CompileError", "readFile", "src/engine/view-tail.ts", "v2.3.1", "README.md"];

/** A session with what the strategies read: paths, names, ids, error lines, long outputs, pins, and some broken pairs. */
function generatedSession(seed: number, size: number, withMissingResults: boolean): Message[] {
  const random = createSeededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const words = (count: number) => Array.from({ length: count }, () => pick(WORDS)).join(" ");
  const identifier = () => {
    const kind = random();
    if (kind < 0.3) return `src/${pick(WORDS)}/${pick(WORDS)}-${Math.floor(random() * 50)}.ts`;
    if (kind < 0.5) return pick(NAMES);
    if (kind < 0.65) return `${pick(WORDS)}${pick(["Config", "View", "State"])}${Math.floor(random() * 9)}`;
    if (kind < 0.8) return `${pick(WORDS)}_${pick(WORDS)}_${Math.floor(random() * 30)}`;
    if (kind < 0.9) return String(10_000 + Math.floor(random() * 90_000));
    return `${Math.floor(random() * 0xffffffff)
      .toString(16)
      .padStart(8, "0")}-abcd-4def-8123-${Math.floor(random() * 1e12)}`;
  };
  const output = () => {
    const lines: string[] = [];
    const target = random() < 0.04 ? 22_000 + random() * 10_000 : random() < 0.3 ? 40 : 200 + random() * 3_000;
    let length = 0;
    while (length < target) {
      const kind = random();
      const line =
        kind < 0.45
          ? words(4 + Math.floor(random() * 12))
          : kind < 0.85
            ? `${words(2)} ${identifier()} ${words(2)} ${identifier()}`
            : kind < 0.92
              ? `${pick(["TypeError", "Error:", "FAILED", "panic:", "Permission denied", "not found"])} at ${identifier()}`
              : identifier();
      lines.push(line);
      length += line.length + 1;
    }
    return lines.join("\n");
  };
  const session: Message[] = [{ role: "system", content: `You are a coding agent working on ${identifier()}.` }];
  let turn = 0;
  while (session.length < size) {
    turn += 1;
    const task = `Task ${turn}: ${words(3)} ${identifier()} ${words(4)}`;
    session.push(random() < 0.03 ? { role: "user", content: task, metadata: { pinned: true } } : { role: "user", content: task });
    const steps = Math.floor(random() * 4);
    for (let step = 0; step < steps && session.length < size - 2; step += 1) {
      const ids = Array.from({ length: random() < 0.2 ? 3 : 1 }, (_, index) => `call_${turn}_${step}_${index}`);
      session.push({
        role: "assistant",
        content: random() < 0.5 ? null : `${words(6)} ${identifier()}`,
        tool_calls: ids.map((id) => ({
          id,
          type: "function" as const,
          function: { name: pick(["read_file", "bash", "grep"]), arguments: JSON.stringify({ path: identifier(), pattern: words(2) }) },
        })),
      });
      for (const id of ids) {
        // A result the session lost (a crash mid-call): the manager repairs the pair with a synthetic one.
        if (withMissingResults && random() < 0.05) continue;
        const content = output();
        session.push({ role: "tool", tool_call_id: id, content: random() < 0.15 ? [{ type: "text", text: content }] : content });
      }
    }
    session.push({ role: "assistant", content: `${words(10)} ${identifier()} ${words(20)}` });
  }
  return session.slice(0, size);
}

/** A counter of its own, so the fixture pins the strategies, not a tokenizer's figures. */
const QUARTER_COUNTER: TokenCounter = { name: "quarter", count: (text) => Math.ceil(text.length / 4) };

interface Case {
  readonly seed: number;
  readonly size: number;
  readonly budget: number;
  readonly protectFirst: number;
  readonly withMissingResults: boolean;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  size: fc.constantFrom(300, 3_000, 20_000),
  budget: fc.constantFrom(8_000, 16_000, 32_000, 64_000, 128_000),
  protectFirst: fc.constantFrom(0, 3),
  withMissingResults: fc.boolean(),
});

/** What a case gives: each view, each receipt (its id and time left out) and each explanation, as JSON. */
async function outcome({ seed, size, budget, protectFirst, withMissingResults }: Case): Promise<string> {
  const session = generatedSession(seed, size + 40, withMissingResults);
  const manager = await memoryContext({ tokenizer: QUARTER_COUNTER, protectFirst });
  await manager.setMessages(session.slice(0, size));
  const first = await manager.getMessagesForRequest({ tokenBudget: budget });
  const firstExplained = await manager.explainView({ tokenBudget: budget });
  for (const message of session.slice(size)) await manager.addMessage(message);
  const second = await manager.getMessagesForRequest({ tokenBudget: budget });
  const secondExplained = await manager.explainView({ tokenBudget: budget });
  const receipts = await receiptsWithoutIds(manager);
  return JSON.stringify({ first, firstExplained, second, secondExplained, receipts });
}

const label = ({ seed, size, budget, protectFirst, withMissingResults }: Case) =>
  `seed ${seed}, ${size} messages${withMissingResults ? " (results missing)" : ""}, budget ${budget}, protectFirst ${protectFirst}`;

describe("the default pipeline over generated sessions", () => {
  it("should give the same views, receipts and explanations as the fixture, byte for byte", async () => {
    const cases = [1, 2, 3].flatMap((seed) => fc.sample(caseArbitrary, { seed, numRuns: 4 }));
    await expectPinnedDigests(FIXTURE, "UPDATE_DEFAULT_PIPELINE_VIEWS", cases, label, outcome);
  }, 120_000);
});
