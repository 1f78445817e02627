#!/usr/bin/env node
// The command's entry, committed rather than built: pnpm links a workspace bin at install time, before any
// build, and a bin that points into dist/ would be skipped with a warning.
import { main } from "../dist/cli.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`ctxkit: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
