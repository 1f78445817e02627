// A context module, in plain JavaScript so the CLI can load it without a build, whose mount() registers nothing.
export const meta = { type: "context", name: "mounts-nothing" };

export const configSchema = {
  safeParse: (value) =>
    typeof value === "object" && value !== null && Object.keys(value).length === 0
      ? { success: true, data: value }
      : { success: false, error: new Error("no config keys are accepted") },
};

export function mount() {}
