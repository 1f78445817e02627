import { describe, expect, it } from "vitest";
import { call } from "../test/messages.js";
import { collectFiles } from "./file-operations.js";

describe("collectFiles", () => {
  describe("classification", () => {
    it("should list read-tool paths as read and write or edit paths as modified", () => {
      const files = collectFiles([
        call("Read", ["1"], { file_path: "/src/a.ts" }),
        call("Edit", ["2"], { file_path: "/src/b.ts", old_string: "x", new_string: "y" }),
        call("write_file", ["3"], { path: "notes.md", content: "…" }),
        call("NotebookEdit", ["4"], { notebook_path: "book.ipynb" }),
        call("open", ["5"], { path: "src/c.py", line_number: 3 }),
        call("create", ["6"], { filename: "reproduce.py" }),
      ]);
      expect(files).toEqual({
        readFiles: ["/src/a.ts", "src/c.py"],
        modifiedFiles: ["/src/b.ts", "notes.md", "book.ipynb", "reproduce.py"],
      });
    });

    it("should ignore searches, tools without a path, and arguments that are not JSON", () => {
      const files = collectFiles([
        call("Grep", ["1"], { pattern: "TODO", path: "src" }),
        call("Glob", ["2"], { pattern: "**/*.ts", path: "." }),
        call("find_file", ["3"], { file_name: "x.py", dir: "." }),
        call("Bash", ["4"], { command: "cat a.txt" }),
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "5", type: "function", function: { name: "read_file", arguments: "{not json" } }],
        },
      ]);
      expect(files).toEqual({ readFiles: [], modifiedFiles: [] });
    });

    it("should follow a str_replace_editor command rather than the tool's name", () => {
      const files = collectFiles([
        call("str_replace_editor", ["1"], { command: "view", path: "/repo/a.py" }),
        call("str_replace_editor", ["2"], { command: "str_replace", path: "/repo/b.py", old_str: "a", new_str: "b" }),
      ]);
      expect(files).toEqual({ readFiles: ["/repo/a.py"], modifiedFiles: ["/repo/b.py"] });
    });

    it("should read the files an apply_patch call names in its patch", () => {
      const patch = "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-a\n+b\n*** Add File: src/new.ts\n+x\n*** End Patch";
      expect(collectFiles([call("apply_patch", ["1"], { input: patch })]).modifiedFiles).toEqual(["src/app.ts", "src/new.ts"]);
    });
  });

  describe("carry-over", () => {
    it("should move a file from read to modified once it is changed, and not back", () => {
      const files = collectFiles([
        call("Read", ["1"], { file_path: "a" }),
        call("Edit", ["2"], { file_path: "a" }),
        call("Read", ["3"], { file_path: "a" }),
      ]);
      expect(files).toEqual({ readFiles: [], modifiedFiles: ["a"] });
    });

    it("should give the same lists extended in two steps as read at once", () => {
      const first = [
        call("Read", ["1"], { file_path: "a" }),
        call("Read", ["2"], { file_path: "b" }),
        call("Edit", ["3"], { file_path: "c" }),
      ];
      const second = [
        call("Edit", ["4"], { file_path: "a" }),
        call("Read", ["5"], { file_path: "d" }),
        call("Read", ["6"], { file_path: "c" }),
      ];
      expect(collectFiles(second, collectFiles(first))).toEqual(collectFiles([...first, ...second]));
      expect(collectFiles(second, collectFiles(first))).toEqual({ readFiles: ["b", "d"], modifiedFiles: ["c", "a"] });
    });
  });
});
