import fc from "fast-check";
import { describe, it } from "vitest";
import { ContextBudgetError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { estimateCounter } from "../tokens/estimate-counter.js";
import { memoryContext } from "../../test/memory-context.js";
import { createSeededRandom, expectPinnedDigests, receiptsWithoutIds } from "../../test/pinned-digests.js";

// The engine's views, receipts (with every message's fate) and explanations over generated histories far
// over their budgets, pinned byte for byte to what the engine gave before it learnt to leave alone what a
// truncation drops: a cheaper first view must keep and drop the same messages, record the same fates and
// explain them the same way. The fixture holds one SHA-256 per case; after a change meant to alter views,
// rewrite it with UPDATE_VIEW_EQUIVALENCE=1 and say why in the commit.
const FIXTURE = new URL("../../test/__fixtures__/view-equivalence.json", import.meta.url);

const WORDS = "the view keeps each tool call with its results while truncation drops the oldest units first".split(" ");

/**
 * A history with system and developer messages, pinned user messages, parallel tool calls, results of every
 * size (a few past trim-long-text's limit, some as content parts), and, when `isBroken`, calls whose results
 * are missing and results whose call is.
 */
function generatedHistory(seed: number, size: number, isBroken: boolean): Message[] {
  const random = createSeededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const words = (count: number) => Array.from({ length: count }, () => pick(WORDS)).join(" ");
  const identifier = () =>
    random() < 0.5 ? `src/${pick(WORDS)}/${pick(WORDS)}-${Math.floor(random() * 40)}.ts` : `${pick(WORDS)}Id${Math.floor(random() * 99)}`;
  const output = () => {
    const target = random() < 0.02 ? 21_000 + random() * 6_000 : random() < 0.3 ? 30 : 100 + random() * 2_500;
    let text = "";
    while (text.length < target) text += random() < 0.3 ? `${identifier()} ` : `${words(6)}\n`;
    return text;
  };
  const history: Message[] = [{ role: "system", content: `You are an agent working on ${identifier()}.` }];
  if (random() < 0.5) history.push({ role: "developer", content: `Prefer ${identifier()}.` });
  let turn = 0;
  while (history.length < size) {
    turn += 1;
    const task = `Task ${turn}: ${words(4)} ${identifier()}`;
    history.push(random() < 0.03 ? { role: "user", content: task, metadata: { pinned: true } } : { role: "user", content: task });
    const steps = Math.floor(random() * 4);
    for (let step = 0; step < steps; step += 1) {
      const ids = Array.from({ length: random() < 0.2 ? 1 + Math.floor(random() * 3) : 1 }, (_, index) => `call_${turn}_${step}_${index}`);
      history.push({
        role: "assistant",
        content: random() < 0.5 ? null : words(5),
        tool_calls: ids.map((id) => ({
          id,
          type: "function" as const,
          function: { name: pick(["read", "grep", "bash"]), arguments: JSON.stringify({ path: identifier() }) },
        })),
      });
      for (const id of ids) {
        if (isBroken && random() < 0.05) continue;
        const content = output();
        history.push({ role: "tool", tool_call_id: id, content: random() < 0.1 ? [{ type: "text", text: content }] : content });
      }
      if (isBroken && random() < 0.02) history.push({ role: "tool", tool_call_id: `orphan_${turn}_${step}`, content: words(3) });
    }
    history.push({ role: "assistant", content: `${words(12)} ${identifier()}` });
  }
  return history;
}

interface Case {
  readonly seed: number;
  readonly size: number;
  readonly budget: number;
  readonly protectFirst: number;
  readonly isBroken: boolean;
  /** A history index the manager pins (`pinMessage`), in hundredths of the history; none when undefined. */
  readonly pinAt: number | undefined;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  size: fc.constantFrom(300, 2_000, 8_000, 20_000),
  budget: fc.constantFrom(8_000, 32_000, 128_000, 1_000_000),
  protectFirst: fc.constantFrom(0, 3),
  isBroken: fc.boolean(),
  pinAt: fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
});

function refusal(error: unknown): { refused: { budget: number; required: number } } {
  if (!(error instanceof ContextBudgetError)) throw error;
  return { refused: { budget: error.budget, required: error.required } };
}

/** Each view, each explanation and each receipt (its id and time left out) a case gives, as JSON. */
async function outcome({ seed, size, budget, protectFirst, isBroken, pinAt }: Case): Promise<string> {
  const history = generatedHistory(seed, size + 60, isBroken);
  const manager = await memoryContext({ tokenizer: estimateCounter(), protectFirst });
  await manager.setMessages(history.slice(0, size));
  if (pinAt !== undefined) await manager.pinMessage(Math.floor((pinAt * size) / 100));
  const requests = [];
  // The first view of the whole history, a second after a few more messages, then one at half the budget.
  for (const [added, tokenBudget] of [
    [0, budget],
    [30, budget],
    [30, Math.floor(budget / 2)],
  ] as const) {
    const from = size + requests.length * 30;
    for (const message of history.slice(from, from + added)) await manager.addMessage(message);
    // A refusal is an outcome too: the minimal view (pins, a long current turn) may not fit a small budget.
    const view = await manager.getMessagesForRequest({ tokenBudget }).catch(refusal);
    const explained = await manager.explainView({ tokenBudget }).catch(refusal);
    requests.push({ view, explained });
  }
  const receipts = await receiptsWithoutIds(manager);
  return JSON.stringify({ requests, receipts });
}

const label = ({ seed, size, budget, protectFirst, isBroken, pinAt }: Case) =>
  `seed ${seed}, ${size} messages${isBroken ? " (broken pairs)" : ""}, budget ${budget}, protectFirst ${protectFirst}${pinAt === undefined ? "" : `, pin at ${Math.floor((pinAt * size) / 100)}`}`;

describe("views far over their budget", () => {
  it("should give the same views, receipts and explanations as the engine before, byte for byte", async () => {
    const cases = [1, 2, 3, 4].flatMap((seed) => fc.sample(caseArbitrary, { seed, numRuns: 4 }));
    await expectPinnedDigests(FIXTURE, "UPDATE_VIEW_EQUIVALENCE", cases, label, outcome);
  }, 240_000);
});
