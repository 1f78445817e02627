// What a request sends beside its messages (tool definitions, reserved tokens), counted once per definition.
import { ContextRequestError } from "../errors.js";
import type { RequestOptions } from "../protocol.js";
import type { TokenCounter } from "../tokens/token-counter.js";

// Per tool definition: a function tool is wrapped in a few tokens of framing by every provider.
const TOOL_OVERHEAD_TOKENS = 8;

export class RequestOverhead {
  /** By definition object: a steady request passes the same tools each time and counts nothing. */
  private readonly toolTokens = new WeakMap<object, number>();

  constructor(private readonly counter: TokenCounter) {}

  /** Tokens of `options.tools` plus `options.reserveTokens`. */
  tokensOf(options: RequestOptions): number {
    const { reserveTokens = 0, tools = [] } = options;
    if (typeof reserveTokens !== "number" || !Number.isFinite(reserveTokens) || reserveTokens < 0) {
      throw new ContextRequestError([
        { path: "reserveTokens", message: `must be a finite number of tokens ≥ 0, received ${String(reserveTokens)}` },
      ]);
    }
    if (!Array.isArray(tools)) {
      throw new ContextRequestError([
        { path: "tools", message: "must be an array of tool definitions (OpenAI function tools, or any JSON)" },
      ]);
    }
    let tokens = Math.ceil(reserveTokens);
    for (const tool of tools) tokens += this.tokensOfTool(tool);
    return tokens;
  }

  private tokensOfTool(tool: unknown): number {
    if (typeof tool !== "object" || tool === null) return this.count(tool);
    let tokens = this.toolTokens.get(tool);
    if (tokens === undefined) {
      tokens = this.count(tool);
      this.toolTokens.set(tool, tokens);
    }
    return tokens;
  }

  private count(tool: unknown): number {
    return this.counter.count(JSON.stringify(tool) ?? "") + TOOL_OVERHEAD_TOKENS;
  }
}
