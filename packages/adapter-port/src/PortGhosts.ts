import { ERROR_CODES, fail, mcbError, ok, type ErrorCode, type Result } from "@mcb/blocks";
import { PortCallError, type PortClient } from "./PortClient.js";

/** Blocks one ghost shows at most (java/PROTOCOL.md "Ghosts"). */
export const MAX_GHOST_BLOCKS = 32_768;

/** What to show: positions as (x, y, z) triples and the state of each, `states[after[i]]` (a plan's writes have this shape). */
export interface GhostBlocks {
  readonly pos: Int32Array;
  readonly states: readonly string[];
  readonly after: Uint32Array;
}

/** What `show` answers: whether the player was online, and how many blocks they now see. */
export interface GhostShown {
  readonly delivered: boolean;
  readonly shown: number;
}

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/**
 * Ghost previews on a port host (capability `ghosts`): blocks shown to one player's client only,
 * until `clear`, their time running out, or a change of the world under them. Refusals come back
 * as the port's structured errors.
 */
export class PortGhosts {
  private constructor(private readonly client: PortClient) {}

  /** The port's ghosts, or null when its host shows players nothing (no `ghosts` capability). */
  static async of(client: PortClient): Promise<PortGhosts | null> {
    const info = await client.call("info", {}, true);
    return Array.isArray(info.capabilities) && info.capabilities.includes("ghosts") ? new PortGhosts(client) : null;
  }

  async show(playerId: string, blocks: GhostBlocks, ttlSeconds?: number): Promise<Result<GhostShown>> {
    const n = blocks.pos.length / 3;
    if (n > MAX_GHOST_BLOCKS)
      return fail(
        mcbError("budget_exceeded", `${n} blocks; a preview in game shows at most ${MAX_GHOST_BLOCKS}`, { limit: "ghost_blocks", max: MAX_GHOST_BLOCKS }),
      );
    const flat = new Array<number>(n * 4);
    for (let i = 0; i < n; i++) {
      flat[i * 4] = blocks.pos[i * 3]!;
      flat[i * 4 + 1] = blocks.pos[i * 3 + 1]!;
      flat[i * 4 + 2] = blocks.pos[i * 3 + 2]!;
      flat[i * 4 + 3] = blocks.after[i]!;
    }
    const r = await this.call("ghost_show", {
      player_id: playerId,
      palette: blocks.states,
      blocks: flat,
      ...(ttlSeconds === undefined ? {} : { ttl_s: ttlSeconds }),
    });
    if (!r.ok) return r;
    return ok({ delivered: r.value.delivered === true, shown: typeof r.value.shown === "number" ? r.value.shown : 0 });
  }

  /** Sets the player's view back to the world's blocks; how many blocks the ghost had (0: none). */
  async clear(playerId: string): Promise<Result<number>> {
    const r = await this.call("ghost_clear", { player_id: playerId });
    return r.ok ? ok(typeof r.value.cleared === "number" ? r.value.cleared : 0) : r;
  }

  private async call(method: string, params: Record<string, unknown>): Promise<Result<Record<string, unknown>>> {
    try {
      return ok(await this.client.call(method, params, false));
    } catch (e) {
      if (!(e instanceof PortCallError)) throw e;
      if (e.code === "not_found" && e.details.allowed !== undefined)
        return fail(mcbError("invalid_request", "this server's port shows players no previews (no ghosts capability)", { reason: "no_ghosts" }));
      return fail(mcbError((CODES.has(e.code) ? e.code : "busy") as ErrorCode, e.message, { ...e.details }));
    }
  }
}
