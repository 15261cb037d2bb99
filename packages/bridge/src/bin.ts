#!/usr/bin/env node
import { forwardEarly } from "./cli/EarlyForward.js";
import { processIo } from "./cli/Io.js";

// What escapes every request (a timer's failure, a bug) ends the process with the structured error, never a stack trace.
const die = (e: unknown): void => {
  void import("./workspace/world/ThrownError.js").then(({ thrownError }) => {
    process.stderr.write(`${JSON.stringify({ error: thrownError(e, "mcb") })}\n`);
    process.exit(1);
  });
};
process.on("uncaughtException", die);
process.on("unhandledRejection", die);
const argv = process.argv.slice(2);
// Through the process that holds the world when one serves it; else here, with the commands loaded.
process.exitCode = (await forwardEarly(argv, processIo())) ?? (await (await import("./Composition.js")).main(argv, processIo()));
