// fast-check arbitraries for AI SDK conversations: every part type, providerOptions anywhere, tool units with results.
import type { AssistantModelMessage, ModelMessage, SystemModelMessage, ToolResultPart } from "ai";
import fc from "fast-check";

type Json = ReturnType<typeof JSON.parse>;

// Through JSON once, so -0 and other values JSON cannot hold never appear: a history is JSON.
const json: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as Json);
const jsonObject = fc
  .dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, Json>);
const providerOptions = fc.dictionary(fc.constantFrom("openai", "anthropic", "google"), jsonObject, { minKeys: 1, maxKeys: 2 });

/** Sometimes `{ providerOptions }`, sometimes nothing: spread it into a part or message. */
const maybeProviderOptions = fc
  .option(providerOptions, { nil: undefined })
  .map((options) => (options === undefined ? {} : { providerOptions: options }));

const text = fc.string({ maxLength: 20 });
const base64 = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString("base64"));
const httpsUrl = fc.webUrl({ validSchemes: ["https"] });
const mediaType = fc.constantFrom("image/png", "image/jpeg", "application/pdf", "text/plain");
const dataUrl = fc.tuple(fc.constantFrom("image/png", "image/jpeg"), base64).map(([type, data]) => `data:${type};base64,${data}`);

const textPart = fc
  .record({ type: fc.constant("text" as const), text })
  .chain((part) => maybeProviderOptions.map((extra) => ({ ...part, ...extra })));
// Sometimes with OpenAI's `imageDetail`, which ctxkit holds as the image's `detail`.
const imageOptions = fc
  .tuple(maybeProviderOptions, fc.option(fc.constantFrom("auto", "low", "high"), { nil: undefined }))
  .map(([extra, detail]) =>
    detail === undefined
      ? extra
      : { providerOptions: { ...extra.providerOptions, openai: { ...extra.providerOptions?.["openai"], imageDetail: detail } } },
  );
const imagePart = fc
  .record({ image: fc.oneof(httpsUrl, dataUrl), mediaType: fc.option(fc.constantFrom("image/png", "image/jpeg"), { nil: undefined }) })
  .chain(({ image, mediaType: type }) =>
    imageOptions.map((extra) => ({ type: "image" as const, image, ...(type === undefined ? {} : { mediaType: type }), ...extra })),
  );
const filePart = fc
  .record({ data: fc.oneof(base64, httpsUrl), mediaType, filename: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }) })
  .chain(({ data, mediaType: type, filename }) =>
    maybeProviderOptions.map((extra) => ({
      type: "file" as const,
      data,
      mediaType: type,
      ...(filename === undefined ? {} : { filename }),
      ...extra,
    })),
  );
const reasoningPart = fc
  .record({ type: fc.constant("reasoning" as const), text })
  .chain((part) => maybeProviderOptions.map((extra) => ({ ...part, ...extra })));

const outputContentPart = fc.oneof(
  textPart,
  fc.record({ type: fc.constant("image-data" as const), data: base64, mediaType: fc.constantFrom("image/png", "image/jpeg") }),
  fc.record({ type: fc.constant("image-url" as const), url: httpsUrl }),
  fc.record({ type: fc.constant("file-data" as const), data: base64, mediaType }),
  fc.record({ type: fc.constant("file-id" as const), fileId: fc.string({ minLength: 1, maxLength: 8 }) }),
);

const output: fc.Arbitrary<ToolResultPart["output"]> = fc
  .oneof(
    fc.record({ type: fc.constant("text" as const), value: text }),
    fc.record({ type: fc.constant("json" as const), value: json }),
    fc.record({ type: fc.constant("error-text" as const), value: text }),
    fc.record({ type: fc.constant("error-json" as const), value: json }),
    fc.record({ type: fc.constant("content" as const), value: fc.array(outputContentPart, { maxLength: 3 }) }),
    fc
      .record({ type: fc.constant("execution-denied" as const), reason: fc.option(text, { nil: undefined }) })
      .map(({ type, reason }) => (reason === undefined ? { type } : { type, reason })),
  )
  .chain(
    (value): fc.Arbitrary<ToolResultPart["output"]> =>
      value.type === "content"
        ? fc.constant(value)
        : maybeProviderOptions.map((extra) => ({ ...value, ...extra }) as ToolResultPart["output"]),
  );

const toolName = fc.constantFrom("search", "read_file", "weather", "run");

const userMessage = fc
  .record({ content: fc.oneof(text, fc.array(fc.oneof(textPart, imagePart, filePart), { minLength: 1, maxLength: 3 })) })
  .chain(({ content }) => maybeProviderOptions.map((extra): ModelMessage => ({ role: "user", content, ...extra })));

// A provider-executed call and its result both sit in the assistant message.
const providerExecutedPair: fc.Arbitrary<AssistantModelMessage["content"]> = fc
  .record({ id: fc.uuid(), toolName, input: json, output })
  .map(({ id, toolName: name, input, output: result }) => [
    { type: "tool-call" as const, toolCallId: `server-${id}`, toolName: name, input, providerExecuted: true },
    { type: "tool-result" as const, toolCallId: `server-${id}`, toolName: name, output: result },
  ]);

const assistantText = fc
  .record({
    content: fc.oneof(text, fc.array(fc.oneof(textPart, reasoningPart, filePart), { maxLength: 3 }), providerExecutedPair),
  })
  .chain(({ content }) => maybeProviderOptions.map((extra): ModelMessage => ({ role: "assistant", content, ...extra })));

/** An assistant message with client-side calls, then a tool message answering each, in order or not. */
const toolUnit = fc
  .record({
    // Short ids from a small set: ids repeat across turns, as in real sessions.
    ids: fc.uniqueArray(fc.constantFrom("call_1", "call_2", "call_3", "call_4"), { minLength: 1, maxLength: 3 }),
    others: fc.array(fc.oneof(textPart, reasoningPart), { maxLength: 2 }),
    interleave: fc.boolean(),
    names: fc.array(toolName, { minLength: 3, maxLength: 3 }),
    inputs: fc.array(json, { minLength: 3, maxLength: 3 }),
    outputs: fc.array(output, { minLength: 3, maxLength: 3 }),
    callOptions: fc.array(maybeProviderOptions, { minLength: 3, maxLength: 3 }),
    resultOptions: fc.array(maybeProviderOptions, { minLength: 3, maxLength: 3 }),
    messageOptions: fc.tuple(maybeProviderOptions, maybeProviderOptions),
    reversed: fc.boolean(),
  })
  .map((unit): ModelMessage[] => {
    const calls = unit.ids.map((id, index) => ({
      type: "tool-call" as const,
      toolCallId: id,
      toolName: unit.names[index]!,
      input: unit.inputs[index],
      ...unit.callOptions[index],
    }));
    const content = unit.interleave ? [...calls.slice(0, 1), ...unit.others, ...calls.slice(1)] : [...unit.others, ...calls];
    const results = unit.ids.map(
      (id, index): ToolResultPart => ({
        type: "tool-result" as const,
        toolCallId: id,
        toolName: unit.names[index]!,
        output: unit.outputs[index]!,
        ...unit.resultOptions[index],
      }),
    );
    return [
      { role: "assistant", content, ...unit.messageOptions[0] },
      { role: "tool", content: unit.reversed ? results.reverse() : results, ...unit.messageOptions[1] },
    ];
  });

export const modelMessagesArbitrary: fc.Arbitrary<ModelMessage[]> = fc
  .array(
    fc.oneof(
      userMessage.map((message) => [message]),
      assistantText.map((message) => [message]),
      toolUnit,
    ),
    { maxLength: 8 },
  )
  .map((groups) => groups.flat());

/** The call's `system` option in each shape the AI SDK takes. */
export const systemArbitrary: fc.Arbitrary<string | SystemModelMessage[] | undefined> = fc.oneof(
  fc.constant(undefined),
  text,
  fc.array(
    fc
      .record({ content: text })
      .chain(({ content }) => maybeProviderOptions.map((extra): SystemModelMessage => ({ role: "system", content, ...extra }))),
    { minLength: 1, maxLength: 2 },
  ),
);
