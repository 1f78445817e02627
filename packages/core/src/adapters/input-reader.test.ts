import { describe, expect, it } from "vitest";
import { ContextError } from "../errors.js";
import { AdapterInputError } from "./adapter-input-error.js";
import { readAdapterInput } from "./input-reader.js";

const input = () => readAdapterInput("fromExample", "Pass the SDK's messages.");

function errorOf(run: () => unknown): AdapterInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof AdapterInputError) return error;
    throw error;
  }
  throw new Error("expected an AdapterInputError");
}

describe("readAdapterInput", () => {
  it("should name the adapter, the entry and the field, and say what to do", () => {
    const error = errorOf(() =>
      input()
        .entries([{ role: "user" }, { role: "tool", call: { id: 7 } }])[1]!
        .record("call")
        .string("id"),
    );
    expect(error).toBeInstanceOf(ContextError);
    expect(error).toMatchObject({ code: "CONTEXT_ADAPTER_INPUT", adapter: "fromExample", index: 1, field: "call.id" });
    expect(error.message).toBe('fromExample: entry 1, field "call.id": expected a string, got number 7. Pass the SDK\'s messages.');
  });

  it.each([
    [null, undefined, ""],
    [[null], 0, ""],
    [["text"], 0, ""],
    [[[]], 0, ""],
  ])("should refuse %j as a list of entries", (value, index, field) => {
    expect(errorOf(() => input().entries(value))).toMatchObject({ index, field });
  });

  it("should name the position inside a list field", () => {
    const [entry] = input().entries([{ content: [{ type: "text" }, null] }]);
    expect(errorOf(() => entry!.records("content")).field).toBe("content.1");
  });
});
