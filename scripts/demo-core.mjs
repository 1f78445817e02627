// A short tour of @ctxkit/core: a session with a parallel tool call, its tokens and units, and a
// pipeline run that squeezes it into a small budget.
import { parseMessages, tiktokenCounter } from "@ctxkit/core";
import {
  checkToolPairs,
  countMessageTokens,
  createBuiltInStrategy,
  createMemoryStateStore,
  createViewDraft,
  findToolUnits,
  runPipeline,
} from "@ctxkit/core/kit";

const session = parseMessages([
  { role: "system", content: "You are a careful coding agent." },
  { role: "user", content: "Why does the build fail? Check package.json and the tsconfig." },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_pkg", type: "function", function: { name: "read_file", arguments: '{"path":"package.json"}' } },
      { id: "call_ts", type: "function", function: { name: "read_file", arguments: '{"path":"tsconfig.json"}' } },
    ],
  },
  { role: "tool", tool_call_id: "call_ts", content: '{ "compilerOptions": { "strict": true } }\n'.repeat(40) },
  { role: "tool", tool_call_id: "call_pkg", content: '{ "name": "app", "type": "module" }\n'.repeat(120) },
  { role: "assistant", content: "The build script points at a missing entry file; `src/main.ts` was renamed." },
  { role: "user", content: "Fix it, please." },
]);

const counter = tiktokenCounter("o200k_base");
const entries = session.map((message, index) => ({
  message,
  tokens: countMessageTokens(message, counter),
  source: { kind: "history", index },
}));

const describe = (message) =>
  message.role === "tool"
    ? `tool ← ${message.tool_call_id}`
    : message.tool_calls
      ? `assistant → ${message.tool_calls.map((call) => call.id).join(", ")}`
      : `${message.role}: ${String(message.content).slice(0, 48)}`;

console.log("\nA session with a parallel tool call (results arrive out of order)\n");
entries.forEach((entry, index) =>
  console.log(`  ${String(index).padStart(2)}  ${String(entry.tokens).padStart(5)} tokens  ${describe(entry.message)}`),
);

const draft = createViewDraft(entries);
console.log(`\n  ${draft.tokens} tokens in ${session.length} messages; tool-pair violations: ${checkToolPairs(session).length}`);
console.log("\nUnits (compaction keeps or drops each one whole)\n");
for (const unit of findToolUnits(session)) console.log(`  [${unit.start}, ${unit.end})  ${unit.kind}`);

const budget = 400;
const strategies = [
  createBuiltInStrategy("clear-tool-results", { keepRecent: 1 }),
  createBuiltInStrategy("trim-long-text", { maxChars: 2_000 }),
  createBuiltInStrategy("truncate"),
];
const { view, steps } = await runPipeline(draft, strategies, {
  budget,
  target: Math.floor(budget * 0.6),
  counter,
  history: session,
  signal: new AbortController().signal,
  protectFirst: 0,
  state: createMemoryStateStore(),
  emit: () => {},
  countMessage: (message) => countMessageTokens(message, counter),
});

console.log(`\nThe pipeline squeezes it into a ${budget}-token budget (target ${Math.floor(budget * 0.6)})\n`);
for (const step of steps) {
  console.log(
    `  ${step.strategy.padEnd(20)} ${step.applied ? "applied" : "no-op  "}  ${step.tokensBefore} → ${step.tokensAfter} tokens  ${step.durationMs.toFixed(2)} ms`,
  );
}
console.log(
  `\n  The view: ${view.tokens} tokens, ${view.entries.length} messages, tool-pair violations: ${checkToolPairs(view.entries.map((entry) => entry.message)).length}`,
);
view.entries.forEach((entry) => console.log(`    ${String(entry.tokens).padStart(5)} tokens  ${describe(entry.message)}`));
console.log("");
