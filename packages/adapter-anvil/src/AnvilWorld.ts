import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { blockEntityPredicate, blockEntityType, blockIdOf, blockShapes, type BlockRegistry, type Box3 } from "@mcb/blocks";
import { casInOrder, WorldEventLog, WriteMarks } from "@mcb/adapter-kit";
import {
  ChunkNotLoaded,
  SliceRefused,
  compareAndSetGroups,
  type CasBatchResult,
  type CasResult,
  type CasSlice,
  type EventPage,
  type RegionRead,
  type SavedMarks,
  type WorldAdapter,
  type WorldInfo,
} from "@mcb/engine";
import { NbtError, NbtReader, TAG, canonicalNbt, nbt, stripPosition, type NbtCompound } from "@mcb/nbt";
import type { Chunk } from "./Chunk.js";
import { ChunkStore } from "./ChunkStore.js";
import { flatChunk } from "./FlatGround.js";
import { Heightmaps } from "./Heightmaps.js";
import { SaveError } from "./SaveError.js";
import { readBlockEntities, readBox, type ChunkSource } from "./SaveRead.js";
import { generatedArea } from "./SaveArea.js";
import { createFlatSave, inspectSave, type SaveSummary } from "./SaveFolder.js";
import { chunkVersionsOf, saveVersionOf, type SaveVersion } from "./SaveVersion.js";
import { SessionLock } from "./SessionLock.js";
import type { AnvilWorldOptions, PersonBlock } from "./AnvilWorldOptions.js";

const VOID_AIR = "minecraft:void_air";
const EMPTY_COMPOUND = nbt.compound([]);

function digestOf(c: NbtCompound): string {
  return createHash("sha256")
    .update(canonicalNbt(stripPosition(c)))
    .digest("hex");
}

/**
 * A Minecraft Java world save as a `WorldAdapter`: offline editing of a singleplayer world or a
 * stopped server's, and mcb's own default world. Reads decode chunks from the region files (any
 * compression, 1.18+ chunks upgraded to the registry's states); compare-and-set changes decoded
 * chunks, which are saved crash-safely on `flush`, on the autosave timer, when many are unsaved,
 * and on close (capability "saved_writes": a crash loses only what was not yet saved, and the
 * engine finds exactly that). The save's session.lock is held while it is open.
 */
export class AnvilWorld implements WorldAdapter {
  private store: ChunkStore;
  private readonly heightmaps: Heightmaps;
  private lock: SessionLock;
  private readonly digests = new WeakMap<NbtCompound, string>();
  /** The identity the journal binds to: given, or derived from the save's folder. */
  private readonly worldId: string;
  private readonly minY: number;
  private readonly maxY: number;
  private readonly hasBlockEntity: (state: string) => boolean;
  /** The game's block-entity type of a state (the id a written block entity carries). */
  private readonly blockEntityType: (state: string) => string | null;
  private readonly source: ChunkSource;
  /** People's edits made through `externalEdits`, kept across restarts with `eventDir`. */
  private readonly eventLog: WorldEventLog;
  private readonly writes = new WriteMarks();
  private closed = false;
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly options: AnvilWorldOptions,
    readonly save: SaveSummary,
    /** The registry the save is read (and, when it may be, written) with, its access and release. */
    readonly version: SaveVersion,
    lock: SessionLock,
  ) {
    this.lock = lock;
    this.heightmaps = new Heightmaps(blockShapes(version.registry));
    this.hasBlockEntity = blockEntityPredicate(version.registry);
    this.blockEntityType = blockEntityType(version.registry);
    this.minY = save.height.minY;
    this.maxY = save.height.maxY;
    this.source = {
      minY: this.minY,
      maxY: this.maxY,
      chunk: (cx, cz) => this.chunkFor(cx, cz),
      digest: (e) => this.digestOf(e),
      refusal: (cx, cz) => {
        const why = this.store.refusal(cx, cz);
        return why === null ? null : { chunk: { x: cx, z: cz }, code: why.refusal.code, message: why.message, details: why.refusal.details };
      },
    };
    this.worldId = options.worldId ?? `save-${createHash("sha256").update(save.dir).digest("hex").slice(0, 32)}`;
    this.store = this.newStore();
    if (options.eventDir !== undefined) mkdirSync(options.eventDir, { recursive: true });
    this.eventLog = new WorldEventLog(options.eventDir, 10_000);
  }

  /**
   * Opens a save (creating mcb's own world with `flatGround`) with the registry of its version
   * (`saveVersionOf`). `inspected`: the save as `inspectSave` just read it, for a caller that
   * looked at it first (its identity), so level.dat and its data packs are read once. Throws
   * `SaveError` (busy, not_a_save, version_mismatch for an asked version the save cannot be
   * edited in).
   */
  static async open(options: AnvilWorldOptions, inspected?: SaveSummary): Promise<AnvilWorld> {
    if (options.flatGround === true && !existsSync(join(options.dir, "level.dat"))) {
      const version = versionOrThrow(options.dir, null, undefined, options.registry);
      mkdirSync(options.dir, { recursive: true });
      const lock = await SessionLock.acquire(options.dir);
      let save: SaveSummary;
      try {
        save = createFlatSave(options.dir, {
          levelName: "mcb world",
          dataVersion: version.registry.dataVersion,
          minecraftVersion: version.registry.minecraftVersion,
        });
      } catch (e) {
        await lock.release();
        throw e;
      }
      return new AnvilWorld(options, save, version, lock);
    }
    const save = inspected ?? inspectSave(options.dir);
    const version = versionOrThrow(options.dir, save.dataVersion, save.versionName, options.registry);
    const lock = await SessionLock.acquire(options.dir);
    return new AnvilWorld(options, save, version, lock);
  }

  /** Whether every write is refused (an older or newer save), with the reason. */
  get readOnly(): { readonly reason: string; readonly message: string } | null {
    const a = this.version.access;
    return a.mode === "read" ? { reason: a.reason, message: a.message } : null;
  }

  /** The box of the chunks the save has (its default project area), null when it has none. */
  generatedArea(): Box3 | null {
    return generatedArea(this.save.regionDir, this.minY, this.maxY);
  }

  private newStore(): ChunkStore {
    const dv = this.version.registry.dataVersion;
    return new ChunkStore({
      regionDir: this.save.regionDir,
      versions: chunkVersionsOf(this.version.registry),
      heightmaps: this.heightmaps,
      generator: this.options.flatGround === true ? (x, z) => flatChunk(x, z, dv) : null,
      maxChunks: this.options.maxChunks ?? 1024,
      readOnly: this.version.access.mode === "read",
      height: { minSection: this.minY >> 4, sectionCount: (this.maxY - this.minY + 1) >> 4 },
    });
  }

  /** Whether session.lock is held (false: python3 is missing, the lock is only checked). */
  get sessionLockHeld(): boolean {
    return this.lock.held;
  }

  private alive(): void {
    if (this.closed) throw new Error("world is closed");
  }

  async info(): Promise<WorldInfo> {
    this.alive();
    const readOnly = this.readOnly;
    return {
      worldId: this.worldId,
      epoch: this.options.epoch ?? 1,
      minecraftVersion: this.version.registry.minecraftVersion,
      dataVersion: this.version.registry.dataVersion,
      minY: this.minY,
      maxY: this.maxY,
      capabilities: ["events", "block_entities", "block_entity_data", "persistence", "saved_writes"],
      saved: this.writes.marks(),
      savedBy: { dataVersion: this.version.dataVersion, release: this.version.release },
      ...(readOnly === null ? {} : { readOnly: { code: "version_mismatch", ...readOnly } }),
    };
  }

  /** The chunk for a read; `ChunkNotLoaded` when the save does not have it (never generated here). */
  private chunkFor(cx: number, cz: number): Chunk {
    const c = this.store.read(cx, cz); // a damaged or too new chunk throws SaveError naming it
    if (c !== null) return c;
    throw new ChunkNotLoaded(
      { x: cx, z: cz },
      `chunk ${cx},${cz} is not generated in this save (mcb never generates terrain in a person's save: visit the area in the game first)`,
      false,
    );
  }

  async read(box: Box3): Promise<RegionRead> {
    this.alive();
    return readBox(this.source, box);
  }

  async readBlockEntities(box: Box3): Promise<ReadonlyMap<number, Uint8Array>> {
    this.alive();
    return readBlockEntities(this.source, box);
  }

  private digestOf(e: NbtCompound): string {
    let d = this.digests.get(e);
    if (d === undefined) this.digests.set(e, (d = digestOf(e)));
    return d;
  }

  private entityAt(x: number, y: number, z: number): NbtCompound | undefined {
    if (y < this.minY || y > this.maxY) return undefined;
    const c = this.chunkFor(x >> 4, z >> 4);
    return c.entities.get(c.blockKey(x, y, z));
  }

  /** Current state (void air outside the build height); throws `ChunkNotLoaded` for a chunk the save lacks. */
  stateAt(x: number, y: number, z: number): string {
    if (y < this.minY || y > this.maxY) return VOID_AIR;
    return this.chunkFor(x >> 4, z >> 4).get(x, y, z);
  }

  digestAt(x: number, y: number, z: number): string | null {
    const e = this.entityAt(x, y, z);
    return e === undefined ? null : this.digestOf(e);
  }

  /** A window of slices in one call (`casInOrder`): the engine journals their intents in one commit. */
  compareAndSetBatch(slices: readonly CasSlice[]): Promise<CasBatchResult> {
    return casInOrder(slices, (slice) => this.compareAndSet(slice));
  }

  async compareAndSet(slice: CasSlice): Promise<CasResult> {
    this.alive();
    // Every chunk the slice writes must be writable and every data readable, or nothing is written.
    const data = new Map<number, NbtCompound>();
    slice.writes.forEach((w, i) => {
      if (w.afterData !== undefined) data.set(i, parseData(w.afterData));
    });
    const readOnly = this.readOnly;
    if (readOnly !== null) throw new SliceRefused("version_mismatch", readOnly.message);
    let lastX = Number.NaN,
      lastZ = Number.NaN; // a slice's writes come chunk by chunk: each chunk is asked once per run
    for (const w of slice.writes) {
      if (w.y < this.minY || w.y > this.maxY) throw new SliceRefused("out_of_bounds", `write at y=${w.y} is outside the world (${this.minY}..${this.maxY})`);
      if (w.x >> 4 === lastX && w.z >> 4 === lastZ) continue;
      lastX = w.x >> 4;
      lastZ = w.z >> 4;
      const why = this.store.refusal(lastX, lastZ);
      if (why !== null) throw new SliceRefused(why.code, why.message);
    }
    const { written, mismatches, entityDigests } = compareAndSetGroups(slice, {
      stateAt: (x, y, z) => this.stateAt(x, y, z),
      digestAt: (x, y, z) => this.digestAt(x, y, z),
      place: (i) => this.place(slice.writes[i]!.x, slice.writes[i]!.y, slice.writes[i]!.z, slice.writes[i]!.after, data.get(i)),
    });
    if (mismatches.length > 0 && written === 0 && mismatches[0]!.kind === "check") return { written, mismatches, entityDigests, saved: this.writes.marks(0) };
    const seq = this.writes.next(written);
    if (written > 0) this.afterWrite();
    return { written, mismatches, entityDigests, saved: this.writes.marks(seq) };
  }

  private afterWrite(): void {
    const limit = this.options.maxUnsavedChunks ?? 256;
    if (this.store.dirtyChunks > limit || limit === 0) {
      this.save_();
      return;
    }
    const idle = this.options.idleSaveMs ?? 2000;
    if (idle <= 0) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.closed) return;
      try {
        this.save_();
      } catch {
        // Nothing was marked saved: the next flush (mcb build waits for one) tries again and
        // reports the failure, and a process that ends first leaves the writes to the restart check.
      }
    }, idle);
    this.timer.unref();
  }

  /**
   * Writes every changed chunk now; every write numbered so far is then saved. A failure marks
   * nothing saved and keeps the changed chunks for the next try; it is a `SaveError` (a damaged
   * region, `busy` for the game's lock or a failing disk), never a bare I/O exception.
   */
  private save_(): void {
    if (this.readOnly !== null) return; // nothing is ever written into a read-only save
    this.lock.check();
    this.store.flush();
    this.writes.savedAll();
  }

  async flush(): Promise<SavedMarks> {
    this.alive();
    this.save_();
    return this.writes.marks();
  }

  private place(x: number, y: number, z: number, state: string, data: NbtCompound | undefined): void {
    const chunk = this.store.forWrite(x >> 4, z >> 4);
    const key = chunk.blockKey(x, y, z);
    const current = chunk.entities.get(key);
    const before = chunk.get(x, y, z);
    chunk.set(x, y, z, state);
    if (this.hasBlockEntity(state)) {
      let body: NbtCompound;
      if (data !== undefined) body = data;
      else if (current !== undefined && blockIdOf(before) === blockIdOf(state)) return;
      else body = EMPTY_COMPOUND;
      chunk.entities.set(key, {
        t: TAG.Compound,
        v: new Map([["id", nbt.string(this.blockEntityType(state)!)], ["x", nbt.int(x)], ["y", nbt.int(y)], ["z", nbt.int(z)], ...stripPosition(body).v]),
      });
      chunk.entitiesDirty = true;
    } else if (current !== undefined) {
      chunk.entities.delete(key);
      chunk.entitiesDirty = true;
    }
  }

  async events(cursor: string | null): Promise<EventPage> {
    this.alive();
    return this.eventLog.page(cursor);
  }

  /** A person's edit (`mcb edit`, a test's player): applied, saved at once, reported as an event unless told not to. */
  externalEdit(x: number, y: number, z: number, state: string, options: { readonly data?: Uint8Array; readonly emitEvent?: boolean } = {}): void {
    this.externalEdits([{ x, y, z, state }], options);
  }

  /**
   * Many blocks changed by a person at once (each may carry its block-entity data), checked first,
   * saved together, one event each unless `emitEvent` is false (a copy that is nobody's edit).
   */
  externalEdits(edits: readonly PersonBlock[], options: { readonly data?: Uint8Array; readonly emitEvent?: boolean } = {}): void {
    this.alive();
    const shared = options.data === undefined ? undefined : parseData(options.data);
    const data = edits.map((e) => (e.data === undefined ? shared : parseData(e.data)));
    const readOnly = this.readOnly;
    if (readOnly !== null) throw new SaveError("version_mismatch", readOnly.message, { file: this.save.dir });
    for (const e of edits) {
      if (e.y < this.minY || e.y > this.maxY) throw new RangeError(`y=${e.y} outside the world`);
      const why = this.store.refusal(e.x >> 4, e.z >> 4);
      if (why !== null) throw why;
    }
    edits.forEach((e, i) => this.place(e.x, e.y, e.z, e.state, data[i]));
    this.save_();
    if (options.emitEvent === false) return;
    this.eventLog.record(edits.map(({ x, y, z }) => ({ x, y, z, state: this.stateAt(x, y, z), digest: this.digestAt(x, y, z) })));
  }

  /**
   * Saves the changed chunks and lets the save go (its lock, its files). With `discardUnsaved`, the
   * chunks changed since the last save are dropped instead, as when a process ends without saving:
   * the files keep what was saved, and the writes not saved are for the next open's restart check.
   */
  async close(options: { readonly discardUnsaved?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    if (this.timer !== null) clearTimeout(this.timer);
    try {
      if (options.discardUnsaved !== true) this.save_();
    } finally {
      this.closed = true;
      this.store.close();
      await this.lock.release();
    }
  }
}

/** The save's version, or the refusal as a `SaveError` (`version_mismatch`). */
function versionOrThrow(dir: string, dataVersion: number | null, name: string | undefined, asked: BlockRegistry | undefined): SaveVersion {
  const v = saveVersionOf(dataVersion, name, asked);
  if (!v.ok) throw new SaveError("version_mismatch", `${dir}: ${v.error.message}`, { file: join(dir, "level.dat"), ...(v.error.details ?? {}) });
  return v.value;
}

function parseData(data: Uint8Array): NbtCompound {
  try {
    const r = new NbtReader(data);
    if (r.root().type !== TAG.Compound) throw new NbtError("root is not a compound", 0);
    return r.compoundValue();
  } catch (e) {
    if (e instanceof NbtError) throw new SliceRefused("invalid_request", `block-entity data is not an NBT compound (${e.message})`);
    throw e;
  }
}
