// A valid strategy module written with a single default export.
const configSchema = { safeParse: (value) => ({ success: true, data: value }) };

export default {
  meta: { type: "strategy", name: "default-export" },
  configSchema,
  createStrategy: () => ({ name: "default-export", apply: (view) => ({ view, applied: false }) }),
  mount() {},
};
