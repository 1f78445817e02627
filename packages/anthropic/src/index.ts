// @ctxkit/anthropic: ctxkit views as Anthropic Messages requests, and Anthropic messages back into a manager.
export {
  toAnthropicMessages,
  DEFAULT_OPENING_USER_TEXT,
  type AnthropicRequest,
  type AnthropicMessageParam,
  type ToAnthropicOptions,
} from "./to-anthropic-messages.js";
export { fromAnthropicMessages, type FromAnthropicOptions } from "./from-anthropic-messages.js";
export { MAX_CACHE_BREAKPOINTS, type CacheOptions } from "./cache-breakpoints.js";
