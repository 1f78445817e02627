// One fresh process of the cold-start benchmark: `node cold-start-child.mjs <system>` imports what the system needs,
// builds its first view of a short session, prints its own figures as JSON and exits. Plain JavaScript run by node,
// not tsx, so the process costs what a user's would.
const started = performance.now();
const system = process.argv[2];

/** A ~20-message agent session in OpenAI's format: a system message, tool calls and their results, a closing question. */
function shortSession() {
  const messages = [{ role: "system", content: "You are a careful coding agent. Read before you edit, and say what you changed." }];
  for (let turn = 0; turn < 4; turn++) {
    const id = `call_${turn}`;
    messages.push(
      { role: "user", content: `Step ${turn}: open src/module-${turn}.ts and tell me what it exports, and whether the tests cover it.` },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/module-${turn}.ts` }) } },
        ],
      },
      {
        role: "tool",
        tool_call_id: id,
        content: `export function value${turn}(input: string): number {\n  return input.length * ${turn};\n}\n`.repeat(4),
      },
      {
        role: "assistant",
        content: `src/module-${turn}.ts exports value${turn}, which multiplies the input's length by ${turn}. No test calls it.`,
      },
    );
  }
  messages.push({ role: "user", content: "Which of those modules have no tests? Answer in one line." });
  return messages;
}

async function ctxkitView(tokenizer) {
  const { createSimpleContext } = await import("@ctxkit/context-simple");
  const imported = performance.now();
  const manager = createSimpleContext({ maxTokens: 128_000, tokenizer: await tokenizer() });
  for (const message of shortSession()) await manager.addMessage(message);
  const view = await manager.getMessagesForRequest();
  return { imported, viewLength: view.length };
}

const SYSTEMS = {
  "node -e 0": async () => ({ imported: performance.now(), viewLength: 0 }),
  "zod import alone": async () => {
    // Classic zod as an application imports it, resolved from @ctxkit/core (whose dependency it is for the types):
    // what core's import once stood on. Core's build now carries the part of zod/mini its schemas use instead.
    const { createRequire } = await import("node:module");
    const { pathToFileURL } = await import("node:url");
    const core = createRequire(import.meta.url).resolve("@ctxkit/core");
    // require.resolve finds zod's CommonJS entry; core imports its ES module entry beside it.
    await import(
      pathToFileURL(
        createRequire(core)
          .resolve("zod")
          .replace(/index\.cjs$/, "index.js"),
      ).href
    );
    return { imported: performance.now(), viewLength: 0 };
  },
  "ctxkit import alone": async () => {
    await import("@ctxkit/context-simple");
    return { imported: performance.now(), viewLength: 0 };
  },
  "ctxkit · estimate counter": () => ctxkitView(async () => "estimate"),
  "ctxkit · exact, js-tiktoken's ranks (the previous load)": () =>
    ctxkitView(async () => {
      const [{ tiktokenCounter }, { default: ranks }] = await Promise.all([import("@ctxkit/core"), import("js-tiktoken/ranks/o200k_base")]);
      return tiktokenCounter({ ranks });
    }),
  "ctxkit · exact, rank table hashed at load": () =>
    ctxkitView(async () => {
      const [{ tiktokenCounter }, { default: ranks }] = await Promise.all([
        import("@ctxkit/core"),
        import("@ctxkit/core/ranks/o200k_base"),
      ]);
      return tiktokenCounter({ ranks });
    }),
  "ctxkit · exact, prebuilt index (default)": () => ctxkitView(async () => "o200k_base"),
  "AI SDK pruneMessages (its recipe's estimate)": async () => {
    const { pruneMessages } = await import("ai");
    const imported = performance.now();
    const messages = shortSession()
      .filter((message) => message.role !== "system")
      .map((message) => {
        if (message.role === "tool") {
          return {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: message.tool_call_id,
                toolName: "read_file",
                output: { type: "text", value: message.content },
              },
            ],
          };
        }
        if (message.role === "assistant" && message.tool_calls) {
          return {
            role: "assistant",
            content: message.tool_calls.map((call) => ({
              type: "tool-call",
              toolCallId: call.id,
              toolName: call.function.name,
              input: JSON.parse(call.function.arguments),
            })),
          };
        }
        return { role: message.role, content: message.content };
      });
    // The cookbook's compaction: prune when the estimate (JSON length ÷ 4) is over the budget.
    const view =
      JSON.stringify(messages).length / 4 > 128_000
        ? pruneMessages({ messages, reasoning: "all", toolCalls: "before-last-3-messages" })
        : messages;
    return { imported, viewLength: view.length };
  },
  "LangChain trimMessages · js-tiktoken (its docs' counter)": async () => {
    const [{ AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages }, { Tiktoken }, { default: ranks }] = await Promise.all([
      import("@langchain/core/messages"),
      import("js-tiktoken/lite"),
      import("js-tiktoken/ranks/o200k_base"),
    ]);
    const imported = performance.now();
    const encoder = new Tiktoken(ranks);
    const length = (text) => encoder.encode(text, [], []).length;
    const messages = shortSession().map((message) => {
      if (message.role === "system") return new SystemMessage(message.content);
      if (message.role === "user") return new HumanMessage(message.content);
      if (message.role === "tool") return new ToolMessage({ content: message.content, tool_call_id: message.tool_call_id });
      return new AIMessage({
        content: message.content ?? "",
        tool_calls: (message.tool_calls ?? []).map((call) => ({
          id: call.id,
          name: call.function.name,
          args: JSON.parse(call.function.arguments),
        })),
      });
    });
    // The "How to trim messages" guide's counter: 3 per message plus the role and the content, 3 for the reply.
    const roleOf = (message) => ({ human: "user", ai: "assistant", system: "system", tool: "tool" })[message.getType()];
    const tokenCounter = (list) =>
      list.reduce((total, message) => total + 3 + length(roleOf(message)) + length(String(message.content)), 3);
    const view = await trimMessages(messages, {
      maxTokens: 128_000,
      tokenCounter,
      strategy: "last",
      includeSystem: true,
      startOn: "human",
      endOn: ["human", "tool"],
    });
    return { imported, viewLength: view.length };
  },
};

const run = SYSTEMS[system];
if (run === undefined) {
  console.error(`unknown system "${system}"; one of: ${Object.keys(SYSTEMS).join(", ")}`);
  process.exit(2);
}
const { imported, viewLength } = await run();
const finished = performance.now();
const { user, system: kernel } = process.cpuUsage();
// Figures from the process's own clock: since the process began, since this file began, import and view; and the
// CPU time the process used, which a busy machine inflates far less than wall time.
console.log(
  JSON.stringify({
    system,
    processMs: finished,
    cpuMs: (user + kernel) / 1000,
    scriptMs: finished - started,
    importMs: imported - started,
    viewMs: finished - imported,
    viewLength,
  }),
);
