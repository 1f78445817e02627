import { describe, expect, it } from "vitest";
import { appliedEditsOf, withAppliedEdits, withClearedTokens } from "./applied-edits.js";

const edit = { type: "clear_tool_uses_20250919", cleared_tool_uses: 3, cleared_input_tokens: 4_200 };

describe("applied edits", () => {
  it("should keep the response's edits verbatim on its last message's metadata", () => {
    const edits = appliedEditsOf({ context_management: { applied_edits: [edit] } });
    const [message] = withAppliedEdits([{ role: "assistant", content: "ok", metadata: { traceId: "t" } }], edits);
    expect(message!.metadata).toEqual({ traceId: "t", anthropic: { appliedEdits: [edit] } });
    expect(appliedEditsOf({ context_management: null })).toEqual([]);
  });

  it("should count the cleared tokens back into the reported input: the manager sent them", () => {
    expect(withClearedTokens({ inputTokens: 1_000, outputTokens: 5 }, [edit])).toEqual({ inputTokens: 5_200, outputTokens: 5 });
    expect(withClearedTokens({ inputTokens: 1_000 }, [])).toEqual({ inputTokens: 1_000 });
  });
});
