import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argumentsFromToolInput, toolInputFromArguments, UNPARSED_ARGUMENTS_KEY } from "./tool-arguments.js";

describe("tool arguments", () => {
  it("should give a JSON object as the object", () => {
    expect(toolInputFromArguments('{"path":"a.txt"}')).toEqual({ path: "a.txt" });
  });

  it.each(['{"path":"a.t', "[1,2]", '"text"', "42", "null", ""])("should carry %j unparsed and give it back unchanged", (text) => {
    const input = toolInputFromArguments(text);
    expect(input).toEqual({ [UNPARSED_ARGUMENTS_KEY]: text });
    expect(argumentsFromToolInput(input)).toBe(text);
  });

  it("should read a provider's missing input as an empty object", () => {
    expect(argumentsFromToolInput(undefined)).toBe("{}");
  });

  it("should round-trip any string, and any object through its JSON", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(argumentsFromToolInput(toolInputFromArguments(text))).toBe(text);
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const text = JSON.stringify(object);
        expect(argumentsFromToolInput(toolInputFromArguments(text))).toBe(text);
      }),
    );
  });
});
