// parseConfig: validates a module's config and rejects every bad key and value in one error.
import * as z from "zod/mini";
import { ContextConfigError } from "../errors.js";
import { toConfigIssues } from "./config-issues.js";
import { useEnglishIssueMessages } from "../zod-locale.js";

useEnglishIssueMessages();

/**
 * Parses `input` with `schema` and returns the parsed config (defaults applied).
 * Throws one `ContextConfigError` naming `module` and listing each unknown key and each bad value.
 */
export function parseConfig<Schema extends z.core.$ZodType>(module: string, schema: Schema, input: unknown): z.output<Schema> {
  const result = z.safeParse(schema, input);
  if (!result.success) {
    throw new ContextConfigError(module, toConfigIssues(result.error.issues, [], { schema, input }));
  }
  return result.data;
}
