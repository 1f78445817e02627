// @ctxkit/langchain: ctxkit context managers inside LangChain.js agents, and LangChain messages to and from ctxkit's.
export { toLangchainMessages, toLangchainMessage } from "./to-langchain-messages.js";
export { fromLangchainMessages, fromLangchainMessage } from "./from-langchain-messages.js";
export { contextMiddleware, type ContextMiddlewareOptions } from "./context-middleware.js";
export { isContextOverflow } from "./is-context-overflow.js";
