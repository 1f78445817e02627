// An agent's tools as the JSON definitions a provider is sent, so the manager can take their tokens off the budget.
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";

// By tool object: an agent passes the same tools on every call, and the manager caches their count by identity.
const definitions = new WeakMap<object, unknown>();

/**
 * Each tool as its OpenAI function definition (name, description, JSON schema), the shape most providers are
 * sent; a provider's own tool (a plain object) as it is.
 */
export function toolDefinitions(tools: readonly unknown[]): unknown[] {
  return tools.map((tool) => {
    if (typeof tool !== "object" || tool === null) return tool;
    let definition = definitions.get(tool);
    if (definition === undefined) {
      try {
        definition = convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]);
      } catch {
        // A tool LangChain cannot describe is sent by the integration as it is: counted so too.
        definition = tool;
      }
      definitions.set(tool, definition);
    }
    return definition;
  });
}
