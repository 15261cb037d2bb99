#!/usr/bin/env node
// The `mcb` command as npm links it. Committed, not built, so that `npm ci` links it (and marks it
// executable) before the first build; the command itself is src/bin.ts, built to dist/bin.js.
import { existsSync } from "node:fs";

const built = new URL("../dist/bin.js", import.meta.url);
if (existsSync(built)) await import(built.href);
else {
  process.stderr.write("mcb: the command is not built yet: run `npm run build` in the mcb repository first\n");
  process.exitCode = 1;
}
