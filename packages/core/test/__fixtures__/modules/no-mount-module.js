// Invalid: a context module that forgot to export mount.
export const meta = { type: "context", name: "no-mount" };

export const configSchema = { safeParse: (value) => ({ success: true, data: value }) };
