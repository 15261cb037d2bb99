#!/usr/bin/env node
import { parseArgs } from "node:util";
import { compileRecipeFile, formatSummary } from "./RecipeCommand.js";

const USAGE = `usage:
  mcb recipe compile <recipe.json> [--json] [--mc-version <version>]

Exit status: 0 success, 1 structured error (JSON on stderr), 2 usage error.`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: "boolean" }, "mc-version": { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [group, command, file, ...rest] = parsed.positionals;
  if (parsed.values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (group !== "recipe" || command !== "compile" || file === undefined || rest.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const mcVersion = parsed.values["mc-version"];
  const result = await compileRecipeFile(file, mcVersion === undefined ? {} : { minecraftVersion: mcVersion });
  if (!result.ok) {
    process.stderr.write(`${JSON.stringify({ error: result.error })}\n`);
    return 1;
  }
  process.stdout.write(parsed.values.json === true ? `${JSON.stringify(result.value)}\n` : `${formatSummary(result.value)}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
