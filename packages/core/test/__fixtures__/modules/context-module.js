// A minimal valid context module: an in-memory manager that keeps the config it was mounted with.
import { z } from "zod";

export const meta = { type: "context", name: "fixture-context" };

const isStrategy = (value) => typeof value === "object" && value !== null && typeof value.apply === "function";

export const configSchema = z.strictObject({
  maxTokens: z.number().int().positive().optional(),
  strategies: z
    .array(
      z.union([
        z.string(),
        z.strictObject({ name: z.string(), options: z.record(z.string(), z.unknown()).optional() }),
        z.custom(isStrategy, "expected a strategy"),
      ]),
    )
    .optional(),
  preset: z.enum(["auto", "truncate", "summarize"]).optional(),
  summaryStrategy: z.custom(isStrategy, "expected a strategy").optional(),
});

export class FixtureContextManager {
  messages = [];
  isClosed = false;

  constructor(config) {
    this.config = config;
  }

  async addMessage(message) {
    this.messages.push(message);
  }

  async getMessagesForRequest() {
    return [...this.messages];
  }

  async getMessages() {
    return [...this.messages];
  }

  async setMessages(messages) {
    this.messages = [...messages];
  }

  async clear() {
    this.messages = [];
  }
}

export async function mount(coordinator, config = {}) {
  const manager = new FixtureContextManager(configSchema.parse(config));
  await coordinator.mount("context", manager);
  return () => {
    manager.isClosed = true;
  };
}
