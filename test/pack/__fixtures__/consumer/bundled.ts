// Bundled into one file and run where no node_modules exist: the rank table travels in the bundle.
import { createSimpleContext } from "@ctxkit/context-simple";
import { tiktokenCounter } from "@ctxkit/core";
import o200k_base from "@ctxkit/core/ranks/o200k_base";

const context = createSimpleContext({ maxTokens: 1_000, tokenizer: tiktokenCounter({ ranks: o200k_base }) });
await context.addMessage({ role: "user", content: "Hello from a bundle" });
await context.getMessagesForRequest();

// The default counter cannot find its rank table here, and says how to pass it instead.
let defaultCounterError = "";
try {
  tiktokenCounter().count("hello");
} catch (error) {
  defaultCounterError = error instanceof Error ? error.message : String(error);
}
console.log(JSON.stringify({ viewTokens: (await context.usage())?.tokens, defaultCounterError }));
