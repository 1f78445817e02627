// Exports the wrong shape: a mount that is not a function, and meta of the wrong type.
export const meta = { type: "strategy", name: "wrong-shape" };
export const mount = { context: "not a function" };
