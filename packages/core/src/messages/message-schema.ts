// zod schemas for messages entering a manager. Unknown keys are kept: a manager must not lose data.
// Built on first use: an ordinary message is read without them (ordinary-message.ts), so a fresh process adding
// only such messages never builds these eighty-odd schema objects.
import * as z from "zod/mini";
import { buildOnFirstUse } from "../build-on-first-use.js";
import { useEnglishIssueMessages } from "../zod-locale.js";

useEnglishIssueMessages();

// Tool calls and results in another SDK's shape would sit in `content` unseen by the tool-pair logic:
// a view could then split them. Each is refused with the adapter that converts it.
export const FOREIGN_TOOL_PARTS: Readonly<Record<string, string>> = {
  "tool-call": "an AI SDK tool-call part: convert AI SDK messages with fromModelMessages from @ctxkit/ai-sdk",
  "tool-result": "an AI SDK tool-result part: convert AI SDK messages with fromModelMessages from @ctxkit/ai-sdk",
  tool_use: "an Anthropic tool_use block: convert Anthropic messages with fromAnthropicMessages from @ctxkit/anthropic",
  tool_result: "an Anthropic tool_result block: convert Anthropic messages with fromAnthropicMessages from @ctxkit/anthropic",
};

/** The schema every message entering a manager must pass, built on its first call (the same object after). */
export const messageSchemaOnFirstUse = buildOnFirstUse(() => {
  const textPartSchema = z.looseObject({ type: z.literal("text"), text: z.string() });

  const imageUrlPartSchema = z.looseObject({
    type: z.literal("image_url"),
    image_url: z.looseObject({ url: z.string() }),
  });

  const otherPartSchema = z.looseObject({ type: z.string().check(z.minLength(1)) }).check(
    z.refine((part) => part.type !== "text" && part.type !== "image_url", { message: "a text or image_url part is malformed" }),
    z.superRefine((part, context) => {
      const foreign = Object.hasOwn(FOREIGN_TOOL_PARTS, part.type) ? FOREIGN_TOOL_PARTS[part.type] : undefined;
      if (foreign !== undefined) {
        context.addIssue({
          code: "custom",
          path: ["type"],
          message: `${foreign}; in ctxkit a tool call is an assistant message's tool_calls entry and its result a tool message`,
        });
      }
    }),
  );

  const contentPartSchema = z.union([textPartSchema, imageUrlPartSchema, otherPartSchema]);

  const contentSchema = z.union([z.string(), z.array(contentPartSchema)]);

  const toolCallSchema = z.looseObject({
    id: z.string().check(z.minLength(1, "a tool call needs a non-empty id")),
    type: z.literal("function"),
    function: z.looseObject({
      name: z.string().check(z.minLength(1, "a tool call needs a function name")),
      arguments: z.string(),
    }),
  });

  const messageMetadataSchema = z.looseObject({
    pinned: z.optional(z.boolean()),
    ctxkit: z.optional(z.looseObject({ source: z.string() })),
    provenance: z.optional(
      z.looseObject({
        provider: z.string().check(z.minLength(1, "a provenance names its provider")),
        model: z.string().check(z.minLength(1, "a provenance names its model")),
        account: z.optional(z.string()),
      }),
    ),
  });

  const common = {
    name: z.optional(z.string()),
    metadata: z.optional(messageMetadataSchema),
  };

  const assistantSchema = z
    .looseObject({
      role: z.literal("assistant"),
      content: z.nullable(contentSchema),
      tool_calls: z.optional(z.array(toolCallSchema).check(z.minLength(1, "omit tool_calls instead of sending an empty list"))),
      ...common,
    })
    .check(
      z.superRefine((message, context) => {
        if (message.content === null && message.tool_calls === undefined) {
          context.addIssue({ code: "custom", path: ["content"], message: "content may be null only when the message calls tools" });
        }
        const seen = new Set<string>();
        message.tool_calls?.forEach((call, index) => {
          if (seen.has(call.id)) {
            context.addIssue({
              code: "custom",
              path: ["tool_calls", index, "id"],
              message: `tool call id "${call.id}" is repeated in this message`,
            });
          }
          seen.add(call.id);
        });
      }),
    );

  return z.discriminatedUnion("role", [
    z.looseObject({ role: z.literal("system"), content: contentSchema, ...common }),
    z.looseObject({ role: z.literal("developer"), content: contentSchema, ...common }),
    z.looseObject({ role: z.literal("user"), content: contentSchema, ...common }),
    assistantSchema,
    z.looseObject({
      role: z.literal("tool"),
      content: contentSchema,
      tool_call_id: z.string().check(z.minLength(1, "a tool message needs the id of the call it answers")),
      is_error: z.optional(z.boolean()),
      ...common,
    }),
  ]);
});
