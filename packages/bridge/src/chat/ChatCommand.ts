import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { Engine } from "@mcb/engine";
import { PortGhosts, PortWorld } from "@mcb/adapter-port";
import { EMBEDDED_AREA, EMBEDDED_OWNER, EMBEDDED_PROJECT, type WorldLocation, type WorldService } from "../workspace/world/Workspace.js";
import { roomWorld } from "../workspace/holder/RoomWorld.js";
import type { RoomHost } from "../workspace/holder/HeldWorld.js";
import { agentConfigFrom } from "./AgentConfig.js";
import { DEFAULT_AREA_POLICY } from "./ChatAreas.js";
import { ChatBridge, type ChatBridgeOptions } from "./ChatBridge.js";
import type { ChatSource } from "./ChatSource.js";
import { ConsoleChat } from "./ConsoleChat.js";
import { PortChat } from "./PortChat.js";

export interface ChatOptions extends Pick<ChatBridgeOptions, "mcpServer" | "schematicLimits" | "attachCommand"> {
  /** Read `/ai` lines from stdin as the local player instead of the game's chat queue. */
  readonly console: boolean;
  /** Engine write pacing in blocks per second (default: unpaced). */
  readonly maxRate?: number;
  readonly maxAreaSide?: number;
  /** Seconds `/ai stop` waits for the agent to end its turn before terminating it (default 5). */
  readonly cancelGraceSeconds?: number;
  /** Seconds between the lines telling how an agent's long job goes (default 5). */
  readonly progressEverySeconds?: number;
}

/** The worlds (by engine) whose server /ai queue a chat of this process answers. */
const answering = new WeakSet<Engine>();

/** Largest |x| and |z| of a server world (the vanilla world border). */
const WORLD_EDGE = 29_999_984;

/**
 * `mcb chat`: the in-game `/ai` bridge. With `--console` (the embedded world by default) stdin
 * lines are the local player's messages and replies go to stdout; with `--world port://…` the
 * server's `/ai` queue is polled and replies go to each player in game. Ends on SIGINT/SIGTERM, or
 * when the console's input closes and every request has been answered.
 */
export async function runChat(
  where: WorldLocation,
  options: ChatOptions,
  host: RoomHost = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env },
  service?: WorldService,
): Promise<Result<void>> {
  if (!options.console && where.target.portUrl === undefined)
    return fail(
      mcbError("invalid_request", "mcb chat needs --console (the local player on this terminal) or --world port://127.0.0.1:PORT (players in game)", {
        reason: "usage",
      }),
    );
  const room = await roomWorld(
    where,
    host,
    { create: true, agent: true, limits: options.maxRate === undefined ? {} : { maxBlocksPerSecond: options.maxRate } },
    "mcb chat",
    service,
  );
  if (!room.ok) return room;
  const w = room.value.world;
  const closeWorld = (): Promise<void> => room.value.close();
  const agent = agentConfigFrom({ ...process.env, ...host.env }, w.dir);
  if (!agent.ok) host.stderr.write(`mcb chat: ${agent.error.message}; /ai requests will say so (commands still work)\n`);
  const info = await w.world.info();
  const zone =
    w.embedded !== null ? EMBEDDED_AREA : { minX: -WORLD_EDGE, minY: info.minY, minZ: -WORLD_EDGE, maxX: WORLD_EDGE, maxY: info.maxY, maxZ: WORLD_EDGE };
  // One chat answers a server's /ai queue: a second one in the same holder would answer every message twice.
  if (!options.console) {
    if (answering.has(w.engine)) {
      await closeWorld();
      return fail(mcbError("busy", "another mcb chat in the process holding this world already answers /ai on this server", { reason: "chat_running" }));
    }
    answering.add(w.engine);
  }
  const source: ChatSource = options.console
    ? new ConsoleChat(host.stdin, host.stdout, { playerId: EMBEDDED_OWNER, playerName: "console" })
    : new PortChat((w.world as PortWorld).port);
  const ghosts = options.console || w.embedded !== null ? null : await PortGhosts.of((w.world as PortWorld).port);
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  const unsubscribe = room.value.signals(stop);
  let bridge: ChatBridge;
  try {
    bridge = await ChatBridge.open({
      world: w,
      source,
      agent: agent.ok ? agent.value : null,
      area: { ...DEFAULT_AREA_POLICY, ...(options.maxAreaSide === undefined ? {} : { maxSide: options.maxAreaSide }), zone },
      ...(options.console ? { consolePlayer: { playerId: EMBEDDED_OWNER, projectId: EMBEDDED_PROJECT } } : {}),
      mcpServer: options.mcpServer,
      schematicLimits: options.schematicLimits,
      attachCommand: options.attachCommand,
      // Players in game can be shown previews where the server's port has the ghosts capability.
      ...(ghosts === null ? {} : { ghosts }),
      ...(options.cancelGraceSeconds === undefined ? {} : { cancelGraceMs: options.cancelGraceSeconds * 1000 }),
      ...(options.progressEverySeconds === undefined ? {} : { progressEveryMs: options.progressEverySeconds * 1000 }),
    });
  } catch (e) {
    unsubscribe();
    answering.delete(w.engine);
    await closeWorld();
    const err = (e as { mcb?: unknown }).mcb;
    return fail(err !== undefined ? (err as ReturnType<typeof mcbError>) : mcbError("invalid_request", (e as Error).message));
  }
  host.stderr.write(
    `mcb chat: ${options.console ? "console player" : `polling /ai on ${where.target.portUrl}`}; agent ${agent.ok ? agent.value.kind : "none"}; state ${w.dir}\n`,
  );
  try {
    await bridge.run(abort.signal);
  } finally {
    unsubscribe();
    answering.delete(w.engine);
    await source.close();
    await closeWorld();
  }
  return ok(undefined);
}
