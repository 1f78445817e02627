// Every offload reference in a view retrieves exactly the tool result it stands for, even when later
// turns reuse its tool-call id (real sessions do: providers number calls per response).
import { createContextTools, type ContentPart, type Message } from "@ctxkit/core";
import { findToolUnits } from "@ctxkit/core/kit";
import fc from "fast-check";
import { budgetSpecificationArbitrary, resolveBudget } from "../arbitraries/budget-specification.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { addToTally, defineProperty, withManager } from "./property.js";

/** Core's reference: `[tool result offloaded: … Call retrieve_tool_result with {…} to read all of it.]`. */
const REFERENCE = /^\[tool result offloaded:[\s\S]* Call retrieve_tool_result with (\{[\s\S]*\}) to read all of it\.\]$/;

function textOf(content: string | ContentPart[] | null): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : `[${part.type}]`)).join("\n");
}

/** The arguments an offload reference tells the agent to call retrieve_tool_result with, or undefined. */
export function referenceArguments(message: Message): Record<string, unknown> | undefined {
  if (message.role !== "tool" || typeof message.content !== "string") return undefined;
  const json = REFERENCE.exec(message.content)?.[1];
  if (json === undefined) return undefined;
  try {
    const parsed = JSON.parse(json) as unknown;
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns whose calls reuse a small pool of ids, each with its own large output and distinct arguments
 * (so each call message identifies its turn), then a last user message.
 */
function repeatedIdHistoryArbitrary(): fc.Arbitrary<Message[]> {
  const turn = fc.record({
    ids: fc.uniqueArray(fc.constantFrom("call_1", "call_2", "call_3"), { minLength: 1, maxLength: 2 }),
    size: fc.integer({ min: 1_500, max: 9_000 }),
  });
  return fc.array(turn, { minLength: 2, maxLength: 6 }).map((turns) => [
    { role: "system", content: "You are a coding agent." },
    ...turns.flatMap(({ ids, size }, index): Message[] => [
      { role: "user", content: `Step ${index + 1}: look at the logs.` },
      {
        role: "assistant",
        content: null,
        tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "bash", arguments: JSON.stringify({ turn: index, id }) } })),
      },
      ...ids.map(
        (id): Message => ({
          role: "tool",
          tool_call_id: id,
          content: `turn ${index} ${id}: ${`log line ${index} of ${id}\n`.repeat(Math.ceil(size / 20))}`,
        }),
      ),
    ]),
    { role: "user", content: "Now summarize what the logs said." },
  ]);
}

/** The history result a view's tool message stands for: same id, in the unit whose call message heads its view unit. */
function findSource(view: readonly Message[], position: number, history: readonly Message[]): Message | undefined {
  const unit = findToolUnits(view).find((candidate) => candidate.start < position && position < candidate.end);
  if (unit === undefined) return undefined;
  const call = view[unit.start]!;
  const callIndex = history.findIndex((message) => isDeepEqual(message, call));
  if (callIndex === -1) return undefined;
  const historyUnit = findToolUnits(history).find((candidate) => candidate.start === callIndex);
  const id = (view[position] as { tool_call_id: string }).tool_call_id;
  return history
    .slice(callIndex + 1, historyUnit?.end ?? callIndex + 1)
    .find((message) => message.role === "tool" && message.tool_call_id === id);
}

export const offloadRetrievalProperty = defineProperty({
  name: "offload-retrieval",
  title: "should retrieve exactly the offloaded tool result each reference stands for",
  invariant:
    "Calling retrieve_tool_result (core's context tools over the manager) with the arguments an offload reference in a view gives returns the whole text of the history result that reference replaced, even when later turns reuse its tool-call id.",
  // Cheap per run, and a repeated id reaches an offloaded result in only some sessions: twice the runs, so no seed misses it.
  runsFactor: 2,
  exercises: {
    tally: "references",
    what: "offload references retrieved",
    // Offloading is a strategy a setup may leave out (core's default pipeline does): then there is nothing
    // to retrieve, and a pass would claim what was never checked.
    // The reason names no count: it is the skip's reason in test reports, grouped by text (the count is in `exercised`).
    unreachable: () =>
      "the setup offloads no tool result: no view over large tool outputs held an offload reference " +
      "(put offload-tool-results in its strategies to check retrieval)",
  },
  arbitrary: () =>
    fc
      .record({ history: repeatedIdHistoryArbitrary(), budget: budgetSpecificationArbitrary() })
      .map(({ history, budget }) => ({ history, budget: resolveBudget(budget, history) })),
  async check({ history, budget }, context) {
    await withManager(context, async (driver) => {
      for (const message of structuredClone(history)) await driver.manager.addMessage(message);
      const outcome = await driver.request({ budget }, history.length);
      if (!expectViewOrBudgetError(outcome)) return;
      const tools = createContextTools(driver.manager);
      for (const [position, message] of outcome.view.entries()) {
        const args = referenceArguments(message);
        if (args === undefined) continue;
        addToTally(context, "references");
        const source = findSource(outcome.view, position, history);
        const where = `${describeRequest(outcome)}: the offload reference at view position ${position}`;
        expectThat(source !== undefined, () => `${where} stands for no tool result of its unit in the history: ${preview(message)}`);
        const retrieved = await tools.handle("retrieve_tool_result", { ...args, offset: 0, max_chars: 10_000_000 });
        const expected = textOf(source!.content);
        expectThat(
          retrieved === expected,
          () =>
            `${where} (${JSON.stringify(args)}) retrieves ${preview(retrieved, 120)}, not the result it replaced: ${preview(expected, 120)}`,
        );
      }
    });
  },
});
