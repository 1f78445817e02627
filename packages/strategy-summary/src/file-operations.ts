// Which files a conversation read and modified, from its tool calls' path arguments.
import type { Message } from "@ctxkit/core";

export interface FileLists {
  /** Files read and never modified, in order of first appearance. */
  readonly readFiles: readonly string[];
  /** Files created, written, edited or deleted, in order of first appearance. */
  readonly modifiedFiles: readonly string[];
}

export const NO_FILES: FileLists = Object.freeze({ readFiles: Object.freeze([]), modifiedFiles: Object.freeze([]) });

type Operation = "read" | "modify" | "ignore";

const PATH_KEYS = ["path", "file_path", "filePath", "filename", "file", "notebook_path", "target_file", "paths", "file_paths"];
const MODIFY_WORDS = new Set([
  "write",
  "edit",
  "create",
  "replace",
  "insert",
  "patch",
  "delete",
  "remove",
  "rename",
  "move",
  "append",
  "save",
  "update",
  "apply",
  "modify",
  "undo",
]);
// Searching names a directory or a pattern, not a file that was read.
const SEARCH_WORDS = new Set(["grep", "glob", "search", "find", "list", "ls", "tree", "dir"]);
const READ_WORDS = new Set(["read", "view", "open", "cat", "show", "get", "load", "inspect", "head", "tail"]);
// str_replace_editor-style tools say what they do in a `command` argument.
const COMMAND_OPERATIONS: Record<string, Operation> = {
  view: "read",
  create: "modify",
  str_replace: "modify",
  insert: "modify",
  undo_edit: "modify",
  write: "modify",
};
const PATCH_KEYS = ["patch", "input", "diff"];
const PATCH_FILE_LINE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;

/** `NotebookEdit` → notebook, edit; `read_file` → read, file. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function classify(name: string, input: Record<string, unknown>): Operation {
  const command = input["command"];
  if (typeof command === "string" && command in COMMAND_OPERATIONS) return COMMAND_OPERATIONS[command]!;
  const words = nameWords(name);
  if (words.some((word) => MODIFY_WORDS.has(word))) return "modify";
  if (words.some((word) => SEARCH_WORDS.has(word))) return "ignore";
  if (words.some((word) => READ_WORDS.has(word))) return "read";
  return "ignore";
}

function pathsIn(input: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const key of PATH_KEYS) {
    const value = input[key];
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) if (typeof item === "string" && item.trim() !== "") paths.push(item.trim());
  }
  if (paths.length > 0) return paths;
  // apply_patch-style tools name their files inside the patch text.
  for (const key of PATCH_KEYS) {
    const value = input[key];
    if (typeof value !== "string") continue;
    for (const match of value.matchAll(PATCH_FILE_LINE)) paths.push((match[1] ?? match[2]!).trim());
  }
  return paths;
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Adds the files that `messages`' tool calls touched to `previous`. Carried over this way from one
 * checkpoint to the next, the lists are the same as if the whole conversation were read at once.
 */
export function collectFiles(messages: readonly Message[], previous: FileLists = NO_FILES): FileLists {
  const read = new Set(previous.readFiles);
  const modified = new Set(previous.modifiedFiles);
  for (const message of messages) {
    if (message.role !== "assistant" || message.tool_calls === undefined) continue;
    for (const call of message.tool_calls) {
      const input = parseArguments(call.function.arguments);
      const operation = classify(call.function.name, input);
      if (operation === "ignore") continue;
      for (const path of pathsIn(input)) (operation === "modify" ? modified : read).add(path);
    }
  }
  return { readFiles: [...read].filter((path) => !modified.has(path)), modifiedFiles: [...modified] };
}
