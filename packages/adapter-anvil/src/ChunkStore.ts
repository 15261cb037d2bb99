import { join } from "node:path";
import { describeDataVersion } from "@mcb/blocks";
import type { Chunk } from "./Chunk.js";
import { decodeChunk, encodeChunk } from "./ChunkCodec.js";
import type { ChunkHeight, ChunkVersions } from "./ChunkVersions.js";
import type { Heightmaps } from "./Heightmaps.js";
import { RegionFile, type ChunkWrite } from "./RegionFile.js";
import { SaveError, isSaveError } from "./SaveError.js";

export interface ChunkStoreOptions {
  readonly regionDir: string;
  readonly versions: ChunkVersions;
  readonly heightmaps: Heightmaps;
  /** Makes the chunks a save does not have (mcb's own world); null: a person's save, never generated. */
  readonly generator: ((x: number, z: number) => Chunk) | null;
  /** Decoded chunks kept in memory (clean ones are dropped first; dirty ones stay until flushed). */
  readonly maxChunks: number;
  /** A save mcb only reads: region files are opened read-only and nothing is ever written. */
  readonly readOnly?: boolean;
  /** The sections of the world's height (a chunk of the older layout has no `yPos` to say). */
  readonly height: ChunkHeight;
}

/** A cached chunk: decoded (or generated; null when the save lacks it and nothing generates it). */
interface Entry {
  readonly chunk: Chunk | null;
  /** Why it may not be written (a chunk older than the registry, not fully generated). */
  readonly refusal: SaveError | null;
}

const MAX_OPEN_REGIONS = 64;

/**
 * The chunks of one dimension: region files opened on demand, decoded chunks in a bounded LRU,
 * changed chunks kept until `flush` writes them (region by region, crash-safe) with their
 * neighbours' light flag cleared so the game relights across the borders of what we changed.
 */
export class ChunkStore {
  private readonly chunks = new Map<string, Entry>();
  private readonly regions = new Map<string, RegionFile | null>();
  private readonly dirty = new Map<string, Chunk>();
  /** The chunk asked for last (a slice asks for the same one position after position); never evicted. */
  private last: { x: number; z: number; key: string; entry: Entry } | null = null;

  constructor(private readonly options: ChunkStoreOptions) {}

  get dirtyChunks(): number {
    return this.dirty.size;
  }

  /** The region asked for last (a slice's writes ask for the same one write after write). */
  private lastRegion: { rx: number; rz: number; r: RegionFile } | null = null;

  private region(rx: number, rz: number, create: boolean): RegionFile | null {
    const hot = this.lastRegion;
    if (hot !== null && hot.rx === rx && hot.rz === rz) return hot.r;
    const key = `${rx},${rz}`;
    let r = this.regions.get(key);
    if (r === undefined || (r === null && create)) {
      r = RegionFile.open(join(this.options.regionDir, `r.${rx}.${rz}.mca`), rx, rz, create, this.options.readOnly === true);
      this.regions.delete(key);
      this.regions.set(key, r);
      if (this.regions.size > MAX_OPEN_REGIONS) {
        const [oldKey, old] = this.regions.entries().next().value!;
        old?.close();
        this.regions.delete(oldKey);
        if (old === this.lastRegion?.r) this.lastRegion = null;
      }
    }
    this.lastRegion = r === null ? null : { rx, rz, r };
    return r;
  }

  private load(x: number, z: number): Entry {
    const last = this.last;
    if (last !== null && last.x === x && last.z === z) return last.entry;
    const key = `${x},${z}`;
    const hit = this.chunks.get(key);
    if (hit !== undefined) {
      this.chunks.delete(key);
      this.chunks.set(key, hit);
      this.last = { x, z, key, entry: hit };
      return hit;
    }
    const region = this.region(x >> 5, z >> 5, false);
    const stored = region?.read(x, z) ?? null;
    let entry: Entry;
    if (stored === null) {
      const gen = this.options.generator;
      entry = { chunk: gen === null ? null : gen(x, z), refusal: null };
    } else {
      const { chunk, full } = decodeChunk(stored.nbt, x, z, stored.compression, this.options.versions, region!.path, this.options.height);
      const versions = this.options.versions;
      const refusal = !full
        ? new SaveError(
            "chunk_missing",
            `chunk ${x},${z} is not fully generated in this save; mcb never generates terrain in a person's save: visit the area in the game first`,
            { chunk: { x, z } },
          )
        : chunk.dataVersion < versions.dataVersion
          ? new SaveError(
              "version_mismatch",
              `chunk ${x},${z} was saved by Minecraft ${describeDataVersion(chunk.dataVersion)}, older than this world's blocks (${describeDataVersion(versions.dataVersion)}); mcb writes only chunks the game has upgraded: visit the area once in a current Minecraft, then try again`,
              { chunk: { x, z }, dataVersion: chunk.dataVersion },
            )
          : chunk.dataVersion > versions.maxDataVersion
            ? new SaveError(
                "version_mismatch",
                `chunk ${x},${z} was saved by Minecraft ${describeDataVersion(chunk.dataVersion)}, newer than this build writes (up to DataVersion ${versions.maxDataVersion}): update mcb`,
                {
                  chunk: { x, z },
                  dataVersion: chunk.dataVersion,
                },
              )
            : null;
      entry = { chunk: full ? chunk : null, refusal };
    }
    this.chunks.set(key, entry);
    this.last = { x, z, key, entry };
    this.evict();
    return entry;
  }

  private evict(): void {
    if (this.chunks.size <= this.options.maxChunks) return;
    for (const [key] of this.chunks) {
      if (this.chunks.size <= this.options.maxChunks) break;
      if (!this.dirty.has(key) && key !== this.last?.key) this.chunks.delete(key);
    }
  }

  /** The chunk to read, or null when the save does not have it (fully generated) and nothing generates it. */
  read(x: number, z: number): Chunk | null {
    return this.load(x, z).chunk;
  }

  /**
   * Why a write into the chunk would be refused (null: it may be written): its region file is
   * damaged (`corrupt_region`, naming every damaged chunk), the chunk is older or newer than the
   * registry, not fully generated, or missing.
   */
  refusal(x: number, z: number): SaveError | null {
    const damaged = this.region(x >> 5, z >> 5, false)?.refusal() ?? null;
    if (damaged !== null) return damaged;
    const e = this.load(x, z);
    if (e.refusal !== null) return e.refusal;
    if (e.chunk === null)
      return new SaveError(
        "chunk_missing",
        `chunk ${x},${z} does not exist in this save; mcb never generates terrain in a person's save: visit the area in the game first`,
        { chunk: { x, z } },
      );
    return null;
  }

  /** The chunk to change (call `refusal` first); it is written at the next flush. */
  forWrite(x: number, z: number): Chunk {
    const e = this.load(x, z);
    const chunk = e.chunk!;
    this.dirty.set(`${x},${z}`, chunk);
    return chunk;
  }

  /**
   * Writes every changed chunk (and clears the light flag of their stored neighbours), region by
   * region, each region crash-safely. Returns the number of chunks written. A failure is a
   * `SaveError` (a damaged region; `save_failed` for the disk's own errors) and keeps every changed
   * chunk for the next flush.
   */
  flush(): number {
    if (this.dirty.size === 0) return 0;
    const byRegion = new Map<string, { rx: number; rz: number; writes: ChunkWrite[] }>();
    const add = (c: Chunk): void => {
      const key = `${c.x >> 5},${c.z >> 5}`;
      let g = byRegion.get(key);
      if (g === undefined) byRegion.set(key, (g = { rx: c.x >> 5, rz: c.z >> 5, writes: [] }));
      g.writes.push({ x: c.x, z: c.z, nbt: encodeChunk(c, this.options.heightmaps), compression: c.compression });
    };
    const neighbours = new Set<string>();
    for (const c of this.dirty.values()) {
      if (c.dirtySections.size === 0 && !c.entitiesDirty) continue;
      for (let dx = -1; dx <= 1; dx++) for (let dz = -1; dz <= 1; dz++) if (dx !== 0 || dz !== 0) neighbours.add(`${c.x + dx},${c.z + dz}`);
    }
    for (const key of neighbours) {
      if (this.dirty.has(key)) continue;
      const [nx, nz] = key.split(",").map(Number) as [number, number];
      let e: Entry;
      try {
        const region = this.region(nx >> 5, nz >> 5, false);
        // A neighbour in a damaged region keeps its light flag: nothing is written into such a file.
        if (region === null || !region.has(nx, nz) || region.refusal() !== null) continue;
        e = this.load(nx, nz);
      } catch (err) {
        if (isSaveError(err)) continue; // a neighbour we cannot read (a damaged chunk) is left as it is
        throw err;
      }
      const light = e.chunk?.root.get("isLightOn");
      if (e.chunk === null || e.refusal !== null || light === undefined || (light as { v: unknown }).v === 0) continue;
      add(e.chunk);
    }
    for (const c of this.dirty.values()) add(c);
    try {
      for (const g of byRegion.values()) this.region(g.rx, g.rz, true)!.write(g.writes);
    } catch (e) {
      if (isSaveError(e)) throw e;
      // A full disk, a folder made read-only: the changed chunks stay for the next flush.
      const code = (e as NodeJS.ErrnoException).code;
      throw new SaveError(
        "save_failed",
        `could not save the changed chunks in ${this.options.regionDir} (${code ?? (e as Error).message}); nothing was marked saved: free disk space or fix the folder's permissions, then save again (mcb keeps the changes until it exits)`,
        { file: this.options.regionDir, ...(code === undefined ? {} : { errno: code }) },
      );
    }
    const n = this.dirty.size;
    for (const c of this.dirty.values()) {
      c.dirtySections.clear();
      c.entitiesDirty = false;
      c.dirty = false;
    }
    this.dirty.clear();
    this.evict();
    return n;
  }

  /** Forgets every decoded chunk, changed ones included (what a crash loses). */
  drop(): void {
    this.dirty.clear();
    this.chunks.clear();
    this.last = null;
  }

  close(): void {
    for (const r of this.regions.values()) r?.close();
    this.regions.clear();
    this.lastRegion = null;
    this.chunks.clear();
    this.last = null;
  }
}
