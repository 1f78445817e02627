// An agent loop as a user writes it against the installed tarballs: mount a context module, add a
// session's messages, ask for a view. It prints what the smoke test checks.
import { ContextValidationError, createCoordinator, type Message } from "@ctxkit/core";
import { checkToolPairs } from "@ctxkit/core/kit";
import { MockContextManager } from "@ctxkit/core/testing";
import { mount } from "@ctxkit/context-simple";

const coordinator = createCoordinator();
await mount(coordinator, { maxTokens: 3_000 });
const context = coordinator.get("context");
if (context === undefined) throw new Error("context-simple mounted nothing at context");

await context.addMessage({ role: "system", content: "You are a careful coding agent." });
for (let turn = 0; turn < 30; turn += 1) {
  const id = `call_${turn}`;
  await context.addMessage({ role: "user", content: `Read f${turn}.txt and sum it.` });
  await context.addMessage({
    role: "assistant",
    content: null,
    tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `f${turn}.txt` }) } }],
  });
  await context.addMessage({ role: "tool", tool_call_id: id, content: `${turn} `.repeat(400) });
  await context.addMessage({ role: "assistant", content: `The sum for f${turn}.txt is ${turn * 400}.` });
}
const view: Message[] = await context.getMessagesForRequest();
const history = await context.getMessages();

// One copy of each error class: what @ctxkit/core/testing throws is the class @ctxkit/core exports.
let sameErrorClass = false;
try {
  await new MockContextManager().addMessage({ role: "user" } as unknown as Message);
} catch (error) {
  sameErrorClass = error instanceof ContextValidationError;
}

await coordinator.cleanup();
console.log(
  JSON.stringify({
    historyLength: history.length,
    viewLength: view.length,
    firstRole: view[0]?.role,
    lastContent: view.at(-1)?.content,
    pairProblems: checkToolPairs(view).length,
    sameErrorClass,
  }),
);
