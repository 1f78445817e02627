// Invalid in several ways at once: an unknown type, an empty name and no configSchema.
export const meta = { type: "widget", name: "" };

export function mount() {}
