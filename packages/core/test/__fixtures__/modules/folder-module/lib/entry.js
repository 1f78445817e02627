// Reached only through folder-module/package.json `exports["."].import`.
export { configSchema, mount, FixtureContextManager } from "../../context-module.js";

export const meta = { type: "context", name: "fixture-folder" };
