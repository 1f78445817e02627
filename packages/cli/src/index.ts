// @ctxkit/cli: the `ctxkit` command's library: session readers, and the replay that prices and judges views.
export * from "./replay/index.js";
