#!/usr/bin/env node
import { main } from "./Composition.js";
import { processIo } from "./cli/Io.js";

process.exitCode = await main(process.argv.slice(2), processIo());
