import type { Result } from "@mcb/blocks";
import { processSignals } from "../jobs/Interrupt.js";
import { openWorkspace } from "../world/OpenWorkspace.js";
import type { OpenOptions, Workspace, WorldLocation, WorldService } from "../world/Workspace.js";
import type { RoomHost } from "./HeldWorld.js";

/** The world a session runs on, how to leave it, and where its Ctrl-C comes from. */
export interface RoomWorld {
  readonly world: Workspace;
  /** Closes the world if the session opened it; a held one stays open for its holder. */
  close(): Promise<void>;
  /** SIGINT/SIGTERM: the caller's, forwarded by the holder, or this process's; returns the unsubscribe. */
  readonly signals: (handler: (signal: NodeJS.Signals) => void) => () => void;
}

/**
 * The world of a session (mcb mcp, mcb chat, mcb serve): the held one when it is a caller's
 * session inside the holder (its diagnostics on the caller's stderr), else its own, opened so that
 * it serves the other mcb processes meanwhile (as `command`, through `service`).
 */
export async function roomWorld(
  where: WorldLocation,
  host: RoomHost,
  options: Omit<OpenOptions, "serve" | "log">,
  command: string,
  service: WorldService | undefined,
): Promise<Result<RoomWorld>> {
  const log = (line: string): void => void host.stderr.write(`${line}\n`);
  const held = host.held;
  if (held !== undefined)
    return { ok: true, value: { world: { ...held.workspace, log }, close: async () => undefined, signals: (h) => held.command.onSignal(h) } };
  const opened = await openWorkspace(where, { ...options, log, ...(service === undefined ? {} : { serve: { command, commandsOnly: false, service } }) });
  if (!opened.ok) return opened;
  const w = opened.value;
  return { ok: true, value: { world: w, close: () => w.close(), signals: processSignals } };
}
