import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolDefinitions } from "./tool-definitions.js";

const readFile = tool(async ({ path }: { path: string }) => path, {
  name: "read_file",
  description: "Reads a file.",
  schema: z.object({ path: z.string() }),
});

describe("toolDefinitions", () => {
  it("should give a LangChain tool as the function definition a provider is sent", () => {
    const [definition] = toolDefinitions([readFile]);
    expect(definition).toMatchObject({ type: "function", function: { name: "read_file", description: "Reads a file." } });
    expect(JSON.stringify(definition)).toContain('"path"');
  });

  it("should give the same definition object for the same tool, so the manager counts it once", () => {
    expect(toolDefinitions([readFile])[0]).toBe(toolDefinitions([readFile])[0]);
  });

  it("should keep a provider's own tool as it is", () => {
    const search = { type: "web_search_preview" };
    expect(toolDefinitions([search])).toEqual([search]);
  });
});
