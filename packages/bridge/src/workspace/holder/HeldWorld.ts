import { resolve } from "node:path";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { RequestContext } from "@mcb/engine";
import { Interrupt } from "../jobs/Interrupt.js";
import { worldKindOf, type Workspace, type WorldTarget } from "../world/Workspace.js";
import type { Readable } from "node:stream";
import type { ForwardedCommand, TextOut } from "./Forwarding.js";

/** A caller's command running in the holder: the holder's open world and the caller's request and streams. */
export interface HeldWorld {
  readonly workspace: Workspace;
  readonly command: ForwardedCommand;
}

/** The same request context, acting through `client` (read when an operation starts: an MCP client names itself after connecting). */
export function actingThrough(ctx: RequestContext, client: string | (() => string)): RequestContext {
  const { playerId, role } = ctx.principal;
  const principal =
    typeof client === "string"
      ? { playerId, role, client }
      : {
          playerId,
          role,
          get client() {
            return client();
          },
        };
  return { ...ctx, principal };
}

/** A front end's streams, its environment, and the held world when it is a caller's session inside the holder. */
export interface RoomHost {
  readonly stdin: Readable;
  readonly stdout: TextOut;
  readonly stderr: TextOut;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly held?: HeldWorld;
}

/**
 * The held world as the caller's command sees it: its operations are attributed to `client` (e.g.
 * "mcb build (pid 4242)"), its Ctrl-C stops only them (after their slice), its diagnostics go to its
 * stderr, and closing it leaves the world open for the holder.
 */
export function heldView(held: HeldWorld, client: string, log: (line: string) => void): Workspace {
  const w = held.workspace;
  const interrupt = new Interrupt(w.engine, log, { signals: (h) => held.command.onSignal(h), client });
  return {
    ...w,
    ctx: actingThrough(w.ctx, client),
    admin: actingThrough(w.admin, client),
    interrupt,
    log,
    close: async () => interrupt.dispose(),
  };
}

/**
 * A caller names the world it expects (`--world`): the holder serves only its own. A state
 * directory is bound to one world, so another one is the refusal its own opening would give.
 */
export function sameWorld(held: Workspace, asked: WorldTarget, cwd: string): Result<void> {
  const mine = held.target;
  const kind = worldKindOf(asked);
  const same =
    kind === worldKindOf(mine) &&
    (asked.savePath === undefined || resolve(cwd, asked.savePath) === mine.savePath) &&
    (asked.portUrl === undefined || asked.portUrl === mine.portUrl);
  if (same) return ok(undefined);
  const what = (t: WorldTarget): string =>
    t.savePath !== undefined ? `the save ${t.savePath}` : t.portUrl !== undefined ? `the server at ${t.portUrl}` : "the embedded world";
  return fail(
    mcbError("invalid_request", `this state directory is held for ${what(mine)}, not ${what(asked)}: use another --state for it`, {
      reason: "other_world",
    }),
  );
}
