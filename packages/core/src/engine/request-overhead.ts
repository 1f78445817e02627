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

  /** Tokens of `options.tools` plus `options.reserveTokens` (and `options.model` checked, counting nothing). */
  tokensOf(options: RequestOptions): number {
    const { reserveTokens = 0, tools = [] } = options;
    if (typeof reserveTokens !== "number" || !Number.isFinite(reserveTokens) || reserveTokens < 0) {
      throw new ContextRequestError([
        { path: "reserveTokens", message: `must be a finite number of tokens ≥ 0, received ${String(reserveTokens)}` },
      ]);
    }
    // Not sent and not counted, but checked with the rest, so a bad one rejects the request with nothing changed.
    if (options.model !== undefined && (typeof options.model !== "string" || options.model === "")) {
      throw new ContextRequestError([
        {
          path: "model",
          message: `must be the name of the model the view is sent to, a non-empty string, received ${describe(options.model)}`,
        },
      ]);
    }
    if (!Array.isArray(tools)) {
      throw new ContextRequestError([
        { path: "tools", message: "must be an array of tool definitions (OpenAI function tools, or any JSON)" },
      ]);
    }
    let tokens = Math.ceil(reserveTokens);
    tools.forEach((tool, position) => {
      tokens += this.tokensOfTool(tool, position);
    });
    return tokens;
  }

  private tokensOfTool(tool: unknown, position: number): number {
    if (typeof tool !== "object" || tool === null) return this.count(tool, position);
    let tokens = this.toolTokens.get(tool);
    if (tokens === undefined) {
      tokens = this.count(tool, position);
      this.toolTokens.set(tool, tokens);
    }
    return tokens;
  }

  /** A definition the provider could not be sent (circular, a BigInt, a throwing `toJSON`) is the caller's to fix. */
  private count(tool: unknown, position: number): number {
    let json: string | undefined;
    try {
      json = JSON.stringify(tool);
    } catch (error) {
      throw new ContextRequestError(
        [
          {
            path: `tools[${position}]`,
            message: `must be JSON a provider can be sent (${error instanceof Error ? error.message : String(error)}); pass plain tool definitions`,
          },
        ],
        { cause: error },
      );
    }
    return this.counter.count(json ?? "") + TOOL_OVERHEAD_TOKENS;
  }
}

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}
