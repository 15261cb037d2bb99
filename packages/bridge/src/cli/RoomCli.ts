import type { Result } from "@mcb/blocks";
import type { EngineLimits } from "@mcb/engine";
import type { SchematicLimits } from "@mcb/schematic";
import type { WorldLocation } from "../workspace/world/Workspace.js";
import { TEXT_COPIES, type AnswerOptions } from "../workspace/agent/AnswerOptions.js";
import { parseToolsets, TOOLSET_NAMES, type Toolset } from "../workspace/agent/Toolsets.js";
import { intOption } from "./Args.js";
import type { Command } from "./Command.js";
import { limitsFromFlags, READ_LIMITS_USAGE } from "./SchemCli.js";
import { rateLimits } from "./WorldCli.js";

/**
 * The commands that run another front end for as long as it serves: the MCP server, the chat
 * bridge and its diagnosis. The command line parses their options; the composition root
 * (`index.ts`) hands in the rooms that run them, so `cli/` never imports `mcp/` or `chat/`.
 */
export interface Rooms {
  /** `mcb mcp`: the MCP server over stdio until the client closes it (creates the state directory). */
  mcp(
    where: WorldLocation,
    policy: SchematicLimits,
    limits: Partial<EngineLimits>,
    toolsets: readonly Toolset[],
    answers?: AnswerOptions,
  ): Promise<Result<void>>;
  /** `mcb mcp --attach`: an agent's MCP connection to the chat's relay (environment only). */
  attach(env: Readonly<Record<string, string | undefined>>): Promise<Result<void>>;
  /** `mcb chat`: the `/ai` bridge until a signal or the console's end. */
  chat(
    where: WorldLocation,
    options: {
      readonly console: boolean;
      readonly maxRate?: number;
      readonly maxAreaSide?: number;
      readonly cancelGraceSeconds?: number;
      readonly progressEverySeconds?: number;
      readonly schematicLimits: SchematicLimits;
    },
  ): Promise<Result<void>>;
  /** `mcb doctor`: what is configured and what is missing. */
  doctor(where: WorldLocation): Promise<{ readonly ok: boolean }>;
}

export function roomCommands(rooms: Rooms): Command[] {
  return [
    {
      name: "mcp",
      usage: `  mcb mcp [--toolsets LIST] [read limits] [--max-rate N] [--text full|summary] [--confirm-above N]
                                     MCP server over stdio on the world;
                                     --toolsets all|${TOOLSET_NAMES.filter((t) => t !== "build").join(",")}: tools listed from the start
                                     (default: build only; the agent enables more with toolsets_enable);
                                     --text summary: a short line beside structuredContent instead of
                                     its JSON copy (for clients that read structuredContent);
                                     --confirm-above: plans of N blocks or more are put to the person
                                     first when the client can ask (elicitation; default 20000)
  mcb mcp --attach                   MCP for an agent of mcb chat (MCB_CHAT_MCP/_TOKEN from the chat)
${READ_LIMITS_USAGE}`,
      async run(c) {
        if (c.args.length !== 0) return c.usage(`unexpected ${JSON.stringify(c.args[0])}`);
        // stdout belongs to the protocol: errors go to stderr only
        const failed = (r: Result<void>): number => (r.ok ? 0 : (c.io.stderr.write(`${JSON.stringify({ error: r.error })}\n`), 1));
        if (c.values.attach === true) return failed(await rooms.attach(c.io.env));
        const policy = limitsFromFlags(c.values);
        if (!policy.ok) return failed(policy);
        const limits = rateLimits(c);
        if (limits === null) return c.usage("--max-rate takes a positive number of blocks per second");
        const toolsets = parseToolsets(typeof c.values.toolsets === "string" ? c.values.toolsets : "build");
        if (!toolsets.ok) return failed(toolsets);
        const text = c.values.text ?? "full";
        if (typeof text !== "string" || !(TEXT_COPIES as readonly string[]).includes(text)) return c.usage(`--text is one of ${TEXT_COPIES.join(", ")}`);
        const confirmAbove = intOption(c.values["confirm-above"]);
        if (confirmAbove === null) return c.usage("--confirm-above takes a positive number of blocks");
        const answers: AnswerOptions = { textCopy: text as "full" | "summary", ...(confirmAbove === undefined ? {} : { confirmAbove }) };
        return failed(await rooms.mcp(c.location, policy.value, limits, toolsets.value, answers));
      },
    },
    {
      name: "chat",
      usage: `  mcb chat --console [--max-rate N] [--max-area N] [--cancel-grace S] [--progress-every S]
                                     in-game /ai bridge over ACP;
                                     --console: stdin lines are the local player's /ai messages (with
                                     --world: players in game); --cancel-grace: seconds /ai stop waits
                                     for the agent to end its turn before terminating it (default 5);
                                     --progress-every: seconds between the lines telling how an
                                     agent's long job goes (a paste, terrain, a batch undo; default 5)`,
      async run(c) {
        if (c.args.length !== 0) return c.usage(`unexpected ${JSON.stringify(c.args[0])}`);
        const maxRate = intOption(c.values["max-rate"]);
        const maxArea = intOption(c.values["max-area"]);
        const grace = intOption(c.values["cancel-grace"]);
        const every = intOption(c.values["progress-every"]);
        if (maxRate === null || maxArea === null || grace === null || every === null)
          return c.usage("--max-rate, --max-area, --cancel-grace and --progress-every take positive integers");
        if (grace !== undefined && grace > 600) return c.usage("--cancel-grace is at most 600 seconds");
        if (every !== undefined && every > 3600) return c.usage("--progress-every is at most 3600 seconds");
        const policy = limitsFromFlags(c.values);
        if (!policy.ok) return c.emit(policy, () => "");
        const r = await rooms.chat(c.location, {
          console: c.values.console === true,
          schematicLimits: policy.value,
          ...(maxRate === undefined ? {} : { maxRate }),
          ...(maxArea === undefined ? {} : { maxAreaSide: maxArea }),
          ...(grace === undefined ? {} : { cancelGraceSeconds: grace }),
          ...(every === undefined ? {} : { progressEverySeconds: every }),
        });
        return r.ok ? 0 : c.emit(r, () => "");
      },
    },
    {
      name: "doctor",
      usage: "  mcb doctor                         configuration and what is missing, as JSON",
      async run(c) {
        if (c.args.length !== 0) return c.usage(`unexpected ${JSON.stringify(c.args[0])}`);
        const report = await rooms.doctor(c.location);
        c.io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return report.ok ? 0 : 1;
      },
    },
  ];
}
