// Invalid: a strategy module that cannot build its strategy.
export const meta = { type: "strategy", name: "no-create-strategy" };

export const configSchema = { safeParse: (value) => ({ success: true, data: value }) };

export function mount() {}
