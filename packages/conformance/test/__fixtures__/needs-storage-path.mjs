// A context module that cannot mount without a storagePath, as context-persistent: the CLI must say so.
import { z } from "zod";

export const meta = { type: "context", name: "needs-storage-path" };

export const configSchema = z.strictObject({
  storagePath: z.string({ error: (issue) => (issue.input === undefined ? "required: the folder for the journals" : "must be a string") }),
});

export async function mount(_coordinator, config) {
  configSchema.parse(config ?? {});
  throw new Error("this fixture only checks the config");
}
