#!/usr/bin/env node
// The command's entry, committed rather than built: pnpm links a workspace bin at install time, before any
// build, and a bin that points into dist/ would be skipped with a warning.
import { runCli } from "../dist/cli.js";

void runCli(process.argv.slice(2));
