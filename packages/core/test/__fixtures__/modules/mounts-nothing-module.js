// Invalid at mount time: a context module whose mount never mounts a manager.
export const meta = { type: "context", name: "mounts-nothing" };

export const configSchema = { safeParse: (value) => ({ success: true, data: value }) };

export function mount() {}
