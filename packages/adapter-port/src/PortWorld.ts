import {
  ChunkNotLoaded,
  MAX_ADAPTER_READ,
  SliceRefused,
  type AdapterCapability,
  type CasBatchResult,
  type CasResult,
  type CasSlice,
  type EventPage,
  type RegionRead,
  type SavedMarks,
  type WorldAdapter,
  type WorldEvent,
  type WorldInfo,
} from "@mcb/engine";
import { type Box3, Interner } from "@mcb/blocks";
import { decodeBatchResult, decodeCasResult, encodeBatch } from "./CasBatchCodec.js";
import { unpackIndices } from "./PackedIndices.js";
import { digestOrNull, pairs, savedMarks, str, withSaved } from "./PortAnswer.js";
import { PortClient, PortCallError, type PortClientOptions } from "./PortClient.js";

const KNOWN_CAPABILITIES: ReadonlySet<string> = new Set<AdapterCapability>([
  "events",
  "block_entities",
  "block_entity_data",
  "persistence",
  "saved_writes",
  "fault_injection",
]);

export const PORT_PROTOCOL = 1;

/** What `PortWorld.stats` reports: how smooth the server's ticks are and how much port work waits. */
export interface ServerStats {
  readonly ticks: number;
  readonly tickMsMax: number;
  readonly tickMsP99: number;
  readonly tickMsMean: number;
  readonly queueDepth: number;
  readonly maxQueue: number;
  readonly budgetMs: number;
}

function boxParams(box: Box3): { box: { min: { x: number; y: number; z: number }; max: { x: number; y: number; z: number } } } {
  const n = (box.maxX - box.minX + 1) * (box.maxY - box.minY + 1) * (box.maxZ - box.minZ + 1);
  if (box.maxX < box.minX || box.maxY < box.minY || box.maxZ < box.minZ) throw new RangeError("read box has min > max");
  if (n > MAX_ADAPTER_READ) throw new RangeError(`read of ${n} positions exceeds ${MAX_ADAPTER_READ}`);
  return { box: { min: { x: box.minX, y: box.minY, z: box.minZ }, max: { x: box.maxX, y: box.maxY, z: box.maxZ } } };
}

/** The port's compact slice form: states and digests by table index (java/PROTOCOL.md "cas"). */
export function encodeSlice(slice: CasSlice): Record<string, unknown> {
  const states = new Interner();
  const digests = new Interner();
  const digestId = (d: string | null): number => (d === null ? -1 : digests.id(d));
  const data: [number, string][] = [];
  const checks = slice.checks.map((c) => [c.x, c.y, c.z, states.id(c.state), digestId(c.digest)]);
  const writes = slice.writes.map((w, i) => {
    if (w.afterData !== undefined) data.push([i, Buffer.from(w.afterData).toString("base64")]);
    return [w.x, w.y, w.z, states.id(w.before), digestId(w.beforeDigest), states.id(w.after)];
  });
  return {
    states: states.values,
    digests: digests.values,
    checks,
    writes,
    ...(data.length === 0 ? {} : { data }),
    ...(slice.groupEnds === undefined ? {} : { group_ends: slice.groupEnds }),
  };
}

/**
 * `WorldAdapter` over the Java world port (java/PROTOCOL.md): a Minestom host or the Paper plugin on
 * loopback. The port enforces its own limits and runs every read and compare-and-set as one
 * game-thread job, so a read is one snapshot and a slice is atomic with respect to the game.
 * Writes are never retried: a timeout leaves the outcome to the engine's recovery review.
 */
export class PortWorld implements WorldAdapter {
  private constructor(private readonly client: PortClient) {}

  /** Connects and checks the port speaks protocol 1 (GET /health, then an authenticated info). */
  static async connect(options: PortClientOptions): Promise<PortWorld> {
    const client = new PortClient(options);
    try {
      const health = await client.health();
      if (health.protocol !== PORT_PROTOCOL)
        throw new PortCallError("version_mismatch", `the world port speaks protocol ${String(health.protocol)}, this adapter ${PORT_PROTOCOL}`, false, {}, 200);
      const world = new PortWorld(client);
      await world.info();
      return world;
    } catch (e) {
      client.close();
      throw e;
    }
  }

  /** The raw client (stats, chat queue, test hooks). */
  get port(): PortClient {
    return this.client;
  }

  async info(): Promise<WorldInfo> {
    const r = await this.client.call("info", {}, true);
    return {
      worldId: str(r.world_id),
      epoch: Number(r.epoch),
      minecraftVersion: str(r.minecraft_version),
      dataVersion: Number(r.data_version),
      minY: Number(r.min_y),
      maxY: Number(r.max_y),
      capabilities: (Array.isArray(r.capabilities) ? r.capabilities : []).filter(
        (c): c is AdapterCapability => typeof c === "string" && KNOWN_CAPABILITIES.has(c),
      ),
      ...withSaved(savedMarks(r)),
    };
  }

  /** Asks the host to save what the port wrote; resolves when it is on disk (capability saved_writes). */
  async flush(): Promise<SavedMarks> {
    const r = await this.client.call("flush", {}, true);
    const marks = savedMarks(r);
    if (marks === undefined) throw new TypeError("port answer: flush without saved marks");
    return marks;
  }

  /**
   * The host's game-thread figures over its last `lastTicks` ticks (java/PROTOCOL.md "stats"): tick
   * time max, p99 and mean (the host's own tick plus the port's work charged to it), the port's
   * queue and its budget per tick.
   */
  async stats(lastTicks = 1200): Promise<ServerStats> {
    const r = await this.client.call("stats", { last_ticks: lastTicks }, true);
    const num = (k: string): number => {
      const v = Number(r[k]);
      if (!Number.isFinite(v)) throw new TypeError(`port answer: stats.${k} is not a number`);
      return v;
    };
    return {
      ticks: num("ticks"),
      tickMsMax: num("tick_ms_max"),
      tickMsP99: num("tick_ms_p99"),
      tickMsMean: num("tick_ms_mean"),
      queueDepth: num("queue_depth"),
      maxQueue: num("max_queue"),
      budgetMs: num("budget_ms"),
    };
  }

  async read(box: Box3): Promise<RegionRead> {
    const r = await this.readCall("read", box);
    if (!Array.isArray(r.palette)) throw new TypeError("port answer: palette is not an array");
    const palette = r.palette.map((x) => str(x, "a palette state"));
    const count = (box.maxX - box.minX + 1) * (box.maxY - box.minY + 1) * (box.maxZ - box.minZ + 1);
    const states = unpackIndices(Buffer.from(str(r.indices), "base64"), Number(r.bits), count);
    for (const s of states) if (s >= palette.length) throw new TypeError("port answer: index past the palette");
    return { box, palette, states, digests: pairs(r.digests, "digests", str) };
  }

  /** A read; an unloaded chunk is `ChunkNotLoaded` (the port never loads or generates chunks). */
  private async readCall(method: "read" | "read_block_entities", box: Box3): Promise<Record<string, unknown>> {
    try {
      return await this.client.call(method, boxParams(box), true);
    } catch (e) {
      if (e instanceof PortCallError && e.details.reason === "chunk_not_loaded") {
        const c = e.details.chunk as { x?: unknown; z?: unknown } | undefined;
        throw new ChunkNotLoaded(typeof c?.x === "number" && typeof c?.z === "number" ? { x: c.x, z: c.z } : null, e.message);
      }
      throw e;
    }
  }

  async readBlockEntities(box: Box3): Promise<ReadonlyMap<number, Uint8Array>> {
    const r = await this.readCall("read_block_entities", box);
    return pairs(r.entities, "entities", (x) => new Uint8Array(Buffer.from(str(x), "base64")));
  }

  async compareAndSet(slice: CasSlice): Promise<CasResult> {
    let r: Record<string, unknown>;
    try {
      r = await this.client.call("cas", encodeSlice(slice), false);
    } catch (e) {
      // The port refuses a slice before its first write, except when the host failed mid-job (500).
      if (e instanceof PortCallError && e.status !== 500) throw new SliceRefused(e.code, e.message);
      throw e;
    }
    return decodeCasResult(r);
  }

  /**
   * Several slices in one binary `cas_batch` call (java/PROTOCOL.md): the port queues them as
   * game-thread jobs in order and stops after the first with mismatches, refused or failed. A
   * refusal of the whole request (before any slice ran) is a `refused` stop at the first slice.
   */
  async compareAndSetBatch(slices: readonly CasSlice[]): Promise<CasBatchResult> {
    let r: Record<string, unknown>;
    try {
      r = await this.client.callBinary("cas_batch", encodeBatch(slices));
    } catch (e) {
      if (e instanceof PortCallError && e.status !== 500) return { results: [], stopped: { slice: 0, reason: "refused", code: e.code, message: e.message } };
      throw e;
    }
    return decodeBatchResult(r, slices.length);
  }

  async events(cursor: string | null): Promise<EventPage> {
    const r = await this.client.call("events", { cursor }, true);
    if (!Array.isArray(r.events)) throw new TypeError("port answer: events is not an array");
    const events: WorldEvent[] = r.events.map((e: Record<string, unknown>) => ({
      x: Number(e.x),
      y: Number(e.y),
      z: Number(e.z),
      state: str(e.state),
      digest: digestOrNull(e.digest),
    }));
    return { events, cursor: str(r.cursor), gap: r.gap === true };
  }

  async close(): Promise<void> {
    this.client.close();
  }
}
