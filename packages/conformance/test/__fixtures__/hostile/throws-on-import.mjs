// Throws while it is being imported, before any export exists.
export const meta = { type: "context", name: "throws-on-import" };

throw new Error("the module's top level failed: no database configured");
