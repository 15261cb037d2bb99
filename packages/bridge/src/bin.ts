#!/usr/bin/env node
import { main } from "./Composition.js";
import { processIo } from "./cli/Io.js";
import { thrownError } from "./workspace/world/ThrownError.js";

// What escapes every request (a timer's failure, a bug) ends the process with the structured error, never a stack trace.
const die = (e: unknown): void => {
  process.stderr.write(`${JSON.stringify({ error: thrownError(e, "mcb") })}\n`);
  process.exit(1);
};
process.on("uncaughtException", die);
process.on("unhandledRejection", die);
process.exitCode = await main(process.argv.slice(2), processIo());
