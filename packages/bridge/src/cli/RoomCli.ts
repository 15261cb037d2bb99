import type { Result } from "@mcb/blocks";
import type { EngineLimits } from "@mcb/engine";
import type { SchematicLimits } from "@mcb/schematic";
import type { WorldLocation } from "../workspace/world/Workspace.js";
import { TEXT_COPIES, type AnswerOptions } from "../workspace/agent/AnswerOptions.js";
import { parseToolsets, TOOLSET_NAMES, type Toolset } from "../workspace/agent/Toolsets.js";
import { intOption } from "./Args.js";
import type { Command } from "./Command.js";
import type { CliIo } from "./Io.js";
import type { Invocation } from "./Invocation.js";
import type { RoomHost } from "../workspace/holder/HeldWorld.js";
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
    answers: AnswerOptions,
    host: RoomHost,
  ): Promise<Result<void>>;
  /** `mcb serve`: holds the world and serves the other mcb processes on it (and MCP over HTTP with --http) until a signal. */
  serve(
    where: WorldLocation,
    options: {
      readonly http?: number;
      readonly schematicLimits: SchematicLimits;
      readonly limits: Partial<EngineLimits>;
      readonly toolsets: readonly Toolset[];
      readonly answers: AnswerOptions;
    },
    host: RoomHost,
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
    host: RoomHost,
  ): Promise<Result<void>>;
  /** `mcb doctor`: what is configured and what is missing. */
  doctor(where: WorldLocation): Promise<{ readonly ok: boolean }>;
}

/** The front end's streams as the rooms take them (a caller's inside the holder, else the process's). */
function roomHost(io: CliIo): RoomHost {
  return { stdin: io.stdin ?? process.stdin, stdout: io.stdout, stderr: io.stderr, env: io.env, ...(io.held === undefined ? {} : { held: io.held }) };
}

/** The options mcb mcp and mcb serve share: a usage problem, a structured error, or the options. */
function mcpOptions(
  c: Invocation,
): string | Result<{ readonly limits: Partial<EngineLimits>; readonly toolsets: readonly Toolset[]; readonly answers: AnswerOptions }> {
  const limits = rateLimits(c);
  if (limits === null) return "--max-rate takes a positive number of blocks per second";
  const toolsets = parseToolsets(typeof c.values.toolsets === "string" ? c.values.toolsets : "build");
  if (!toolsets.ok) return toolsets;
  const text = c.values.text ?? "full";
  if (typeof text !== "string" || !(TEXT_COPIES as readonly string[]).includes(text)) return `--text is one of ${TEXT_COPIES.join(", ")}`;
  const confirmAbove = intOption(c.values["confirm-above"]);
  if (confirmAbove === null) return "--confirm-above takes a positive number of blocks";
  return {
    ok: true,
    value: { limits, toolsets: toolsets.value, answers: { textCopy: text as "full" | "summary", ...(confirmAbove === undefined ? {} : { confirmAbove }) } },
  };
}

export function roomCommands(rooms: Rooms): Command[] {
  return [
    {
      name: "serve",
      usage: `  mcb serve [--http PORT] [--toolsets LIST] [read limits] [--max-rate N] [--text full|summary] [--confirm-above N]
                                     holds the world and serves it until Ctrl-C: other mcb commands,
                                     mcb mcp and mcb chat on the same --state run in it (the others
                                     get busy only from a holder that does not answer; any mcb mcp
                                     or chat holding a world serves the same way); --http PORT: MCP
                                     over Streamable HTTP at http://127.0.0.1:PORT/mcp, bearer token
                                     from MCB_HTTP_TOKEN or <state>/http-token (0600), several
                                     clients at once; mcb mcp's options for its sessions`,
      async run(c) {
        if (c.args.length !== 0) return c.usage(`unexpected ${JSON.stringify(c.args[0])}`);
        const failed = (r: Result<void>): number => (r.ok ? 0 : (c.io.stderr.write(`${JSON.stringify({ error: r.error })}\n`), 1));
        const policy = limitsFromFlags(c.values);
        if (!policy.ok) return failed(policy);
        const o = mcpOptions(c);
        if (typeof o === "string") return c.usage(o);
        if (!o.ok) return failed(o);
        const port = c.values.http === undefined ? undefined : Number(c.values.http);
        if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) return c.usage("--http takes a port, 0..65535 (0: any free one)");
        return failed(
          await rooms.serve(c.location, { ...(port === undefined ? {} : { http: port }), schematicLimits: policy.value, ...o.value }, roomHost(c.io)),
        );
      },
    },
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
        const o = mcpOptions(c);
        if (typeof o === "string") return c.usage(o);
        if (!o.ok) return failed(o);
        const r = await rooms.mcp(c.location, policy.value, o.value.limits, o.value.toolsets, o.value.answers, roomHost(c.io));
        c.checkHolderAppeared(r);
        return failed(r);
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
        const r = await rooms.chat(
          c.location,
          {
            console: c.values.console === true,
            schematicLimits: policy.value,
            ...(maxRate === undefined ? {} : { maxRate }),
            ...(maxArea === undefined ? {} : { maxAreaSide: maxArea }),
            ...(grace === undefined ? {} : { cancelGraceSeconds: grace }),
            ...(every === undefined ? {} : { progressEverySeconds: every }),
          },
          roomHost(c.io),
        );
        c.checkHolderAppeared(r);
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
