import { createHash, randomUUID } from "node:crypto";
import { blockIdOf, type Box3, DEFAULT_MINECRAFT_VERSION, minecraftVersions } from "@mcb/blocks";
import {
  HostCrash,
  MAX_ADAPTER_READ,
  compareAndSetGroups,
  type CasResult,
  type CasSlice,
  type EventPage,
  type RegionRead,
  type SavedMarks,
  type WorldAdapter,
  type WorldInfo,
} from "@mcb/engine";
import { BoxRead, WorldEventLog, WriteMarks } from "@mcb/adapter-kit";
import { VoxelStore } from "./VoxelStore.js";
import { WorldDirectory } from "./WorldDirectory.js";

export interface MemoryWorldOptions {
  readonly worldId?: string;
  readonly epoch?: number;
  readonly minecraftVersion?: string;
  readonly dataVersion?: number;
  /** Inclusive build height; outside it reads return void air and writes are refused. */
  readonly minY?: number;
  readonly maxY?: number;
  /** Which states carry a block entity (a new one gets default data). Default: none. */
  readonly hasBlockEntity?: (state: string) => boolean;
  /** External events kept for `events()`; older cursors report a gap. */
  readonly eventRetention?: number;
  /**
   * Persist every change to this directory (loads it when it already holds a world), the event
   * log included: edits made while no engine reads them are reported to the next one.
   */
  readonly dir?: string;
  /**
   * A host that saves on its own schedule, like a Minecraft server between autosaves: changes
   * stay unsaved until `flush()` (the port's flush, or an autosave), and a crash followed by
   * `restart()` loses them. Default false: every change is saved when the call returns.
   */
  readonly unsavedUntilFlush?: boolean;
}

/** One block of `externalEdits`. */
export interface ExternalEdit {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly state: string;
}

export interface ExternalEditOptions {
  /** Block-entity data to store (only for block-entity states). */
  readonly data?: Uint8Array;
  /** False: change the world without an event (an external path the engine cannot observe). */
  readonly emitEvent?: boolean;
}

const VOID_AIR = "minecraft:void_air";
/** Default data of a new block entity: an empty NBT compound (unnamed root), as a fresh one saves. */
const EMPTY_COMPOUND = Uint8Array.of(10, 0, 0, 0);

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * An in-memory voxel world implementing `WorldAdapter`: the engine's test twin of a server, and a
 * world for tools that want one without files (the embedded default world is a save on disk,
 * opened by `AnvilWorld`). Also plays the other actors of a server: `externalEdit` is a player or
 * another plugin, `kill()` is the host dying, `restart()` brings it back (events are lost, as on
 * Paper where they are held in process memory). Crash points mid-call are the tests' own wrapper
 * (`CrashingWorld` in property-tests), not this world's.
 */
export class MemoryWorld implements WorldAdapter {
  private readonly store: VoxelStore;
  private readonly options: Required<Omit<MemoryWorldOptions, "dir" | "hasBlockEntity" | "unsavedUntilFlush">>;
  private readonly hasBlockEntity: (state: string) => boolean;
  private readonly directory: WorldDirectory | null;
  private readonly eventLog: WorldEventLog;
  private down = false;
  private closed = false;
  private casCalls = 0;
  private readonly digestCache = new WeakMap<Uint8Array, string>();
  /** Saved writes: the host session, the newest write's number, what is saved. */
  private readonly writes = new WriteMarks();
  /** With `unsavedUntilFlush`: what each changed position held at the last save (reverted by a crash). */
  private readonly unsaved: Map<string, { x: number; y: number; z: number; state: string; entity: Uint8Array | undefined }> | null;

  constructor(options: MemoryWorldOptions = {}) {
    if (options.unsavedUntilFlush === true && options.dir !== undefined) throw new RangeError("unsavedUntilFlush is for a world in memory (no dir)");
    this.unsaved = options.unsavedUntilFlush === true ? new Map() : null;
    this.hasBlockEntity = options.hasBlockEntity ?? (() => false);
    this.directory = options.dir === undefined ? null : new WorldDirectory(options.dir);
    const loaded = this.directory?.load() ?? null;
    this.options = {
      worldId: loaded?.meta.worldId ?? options.worldId ?? randomUUID(),
      epoch: loaded?.meta.epoch ?? options.epoch ?? 1,
      minecraftVersion: loaded?.meta.minecraftVersion ?? options.minecraftVersion ?? DEFAULT_MINECRAFT_VERSION,
      dataVersion: loaded?.meta.dataVersion ?? options.dataVersion ?? minecraftVersions().find((v) => v.version === DEFAULT_MINECRAFT_VERSION)!.dataVersion,
      minY: loaded?.meta.minY ?? options.minY ?? -64,
      maxY: loaded?.meta.maxY ?? options.maxY ?? 319,
      eventRetention: options.eventRetention ?? 10_000,
    };
    this.store = loaded?.store ?? new VoxelStore();
    if (this.directory !== null && loaded === null) this.directory.saveMeta(this.meta());
    this.eventLog = new WorldEventLog(options.dir, this.options.eventRetention);
  }

  private meta() {
    const { worldId, epoch, minecraftVersion, dataVersion, minY, maxY } = this.options;
    return { worldId, epoch, minecraftVersion, dataVersion, minY, maxY };
  }

  private alive(): void {
    if (this.closed) throw new Error("world is closed");
    if (this.down) throw new HostCrash("world host is down (crashed); call restart()");
  }

  async info(): Promise<WorldInfo> {
    this.alive();
    const caps: WorldInfo["capabilities"] = ["events", "block_entities", "block_entity_data", "saved_writes"];
    return { ...this.meta(), capabilities: this.directory === null ? caps : [...caps, "persistence"], saved: this.writes.marks() };
  }

  async read(box: Box3): Promise<RegionRead> {
    this.alive();
    const read = new BoxRead(box, this.options);
    for (let cy = box.minY >> 4; cy <= box.maxY >> 4; cy++)
      for (let cz = box.minZ >> 4; cz <= box.maxZ >> 4; cz++)
        for (let cx = box.minX >> 4; cx <= box.maxX >> 4; cx++) {
          const section = this.store.sections.get(`${cx},${cy},${cz}`);
          read.section(cx, cy, cz, section === undefined ? undefined : { palette: section.palette, indices: section.data });
          if (section === undefined) continue;
          for (const [i, data] of section.entities) {
            const x = cx * 16 + (i & 15),
              z = cz * 16 + ((i >> 4) & 15),
              y = cy * 16 + (i >> 8);
            if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY || z < box.minZ || z > box.maxZ) continue;
            if (y < this.options.minY || y > this.options.maxY) continue;
            read.digests.set(read.index(x, y, z), this.digestOf(data));
          }
        }
    return read.result();
  }

  async readBlockEntities(box: Box3): Promise<ReadonlyMap<number, Uint8Array>> {
    this.alive();
    const sx = box.maxX - box.minX + 1,
      sy = box.maxY - box.minY + 1,
      sz = box.maxZ - box.minZ + 1;
    if (sx <= 0 || sy <= 0 || sz <= 0) throw new RangeError("read box has min > max");
    if (sx * sy * sz > MAX_ADAPTER_READ) throw new RangeError(`read of ${sx * sy * sz} positions exceeds ${MAX_ADAPTER_READ}`);
    const out = new Map<number, Uint8Array>();
    for (let cy = box.minY >> 4; cy <= box.maxY >> 4; cy++)
      for (let cz = box.minZ >> 4; cz <= box.maxZ >> 4; cz++)
        for (let cx = box.minX >> 4; cx <= box.maxX >> 4; cx++) {
          const section = this.store.sections.get(`${cx},${cy},${cz}`);
          if (section === undefined) continue;
          for (const [i, data] of section.entities) {
            const x = cx * 16 + (i & 15),
              z = cz * 16 + ((i >> 4) & 15),
              y = cy * 16 + (i >> 8);
            if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY || z < box.minZ || z > box.maxZ || y < this.options.minY || y > this.options.maxY)
              continue;
            out.set(x - box.minX + (z - box.minZ) * sx + (y - box.minY) * sx * sz, data.slice());
          }
        }
    return out;
  }

  async compareAndSet(slice: CasSlice): Promise<CasResult> {
    this.alive();
    this.casCalls++;
    for (const c of slice.writes) if (c.y < this.options.minY || c.y > this.options.maxY) throw new RangeError(`write at y=${c.y} outside the world`);
    const { written, mismatches, entityDigests } = compareAndSetGroups(slice, {
      stateAt: (x, y, z) => this.stateAt(x, y, z),
      digestAt: (x, y, z) => this.digestAt(x, y, z),
      place: (i) => this.place(slice.writes[i]!.x, slice.writes[i]!.y, slice.writes[i]!.z, slice.writes[i]!.after, slice.writes[i]!.afterData),
    });
    if (mismatches.length > 0 && written === 0 && mismatches[0]!.kind === "check") return { written, mismatches, entityDigests };
    this.persist();
    const seq = this.writes.next(written);
    if (seq > 0 && this.unsaved === null) this.writes.savedAll(); // saved when the call returns
    return { written, mismatches, entityDigests, saved: this.writes.marks(seq) };
  }

  /** Saves every change made so far (with `unsavedUntilFlush`; otherwise they already are). */
  async flush(): Promise<SavedMarks> {
    this.alive();
    this.unsaved?.clear();
    this.writes.savedAll();
    return this.writes.marks();
  }

  /** With `unsavedUntilFlush`: positions changed since the last save (what a crash would lose). */
  get unsavedPositions(): number {
    return this.unsaved?.size ?? 0;
  }

  async events(cursor: string | null): Promise<EventPage> {
    this.alive();
    return this.eventLog.page(cursor);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Changes a block as a player or another plugin would; emits an event unless told not to. */
  externalEdit(x: number, y: number, z: number, state: string, options: ExternalEditOptions = {}): void {
    this.alive();
    if (y < this.options.minY || y > this.options.maxY) throw new RangeError(`y=${y} outside the world`);
    this.place(x, y, z, state, options.data);
    this.persist();
    if (options.emitEvent !== false) this.emit([{ x, y, z }]);
  }

  /**
   * Many blocks changed by hand at once (a player's fill), one event each, persisted together.
   * Every position is checked against the build height before anything changes.
   */
  externalEdits(edits: readonly ExternalEdit[]): void {
    this.alive();
    for (const e of edits) if (e.y < this.options.minY || e.y > this.options.maxY) throw new RangeError(`y=${e.y} outside the world`);
    for (const e of edits) this.place(e.x, e.y, e.z, e.state, undefined);
    this.persist();
    this.emit(edits);
  }

  /** Replaces the data of an existing block entity (a player filling a chest). */
  setBlockEntityData(x: number, y: number, z: number, data: Uint8Array, emitEvent = true): void {
    this.alive();
    if (this.store.entity(x, y, z) === undefined) throw new Error(`no block entity at ${x},${y},${z}`);
    this.store.set(x, y, z, this.store.get(x, y, z), data.slice());
    this.persist();
    if (emitEvent) this.emit([{ x, y, z }]);
  }

  /** Current state (void air outside the build height). */
  stateAt(x: number, y: number, z: number): string {
    if (y < this.options.minY || y > this.options.maxY) return VOID_AIR;
    return this.store.get(x, y, z);
  }

  digestAt(x: number, y: number, z: number): string | null {
    if (y < this.options.minY || y > this.options.maxY) return null;
    const data = this.store.entity(x, y, z);
    return data === undefined ? null : this.digestOf(data);
  }

  private digestOf(data: Uint8Array): string {
    let d = this.digestCache.get(data);
    if (d === undefined) {
      d = sha256(data);
      this.digestCache.set(data, d);
    }
    return d;
  }

  /**
   * Brings a crashed host back: the saved voxel state survives (with `unsavedUntilFlush`, changes
   * since the last flush are lost), the in-memory event log does not, and a new host session
   * numbers writes from 1 again.
   */
  restart(): void {
    if (this.unsaved !== null) {
      for (const u of this.unsaved.values()) this.store.set(u.x, u.y, u.z, u.state, u.entity);
      this.unsaved.clear();
    }
    this.writes.restart();
    this.down = false;
    this.eventLog.newSession();
  }

  /** The host dies now (kill -9): every call fails until `restart()`; with `unsavedUntilFlush`, unsaved changes are lost then. */
  kill(): void {
    this.down = true;
  }

  /** True from `kill()` until `restart()`: every call fails with HostCrash. */
  get hostDown(): boolean {
    return this.down;
  }

  /** Number of compare-and-set calls served (slices). */
  get compareAndSetCalls(): number {
    return this.casCalls;
  }

  private place(x: number, y: number, z: number, state: string, data: Uint8Array | undefined): void {
    const current = this.store.entity(x, y, z);
    const key = `${x},${y},${z}`;
    if (this.unsaved !== null && !this.unsaved.has(key)) this.unsaved.set(key, { x, y, z, state: this.store.get(x, y, z), entity: current });
    let entity: Uint8Array | undefined;
    if (this.hasBlockEntity(state)) {
      if (data !== undefined) entity = data.slice();
      else if (current !== undefined && blockIdOf(this.store.get(x, y, z)) === blockIdOf(state)) entity = current;
      else entity = EMPTY_COMPOUND;
    }
    this.store.set(x, y, z, state, entity);
  }

  private emit(at: readonly { readonly x: number; readonly y: number; readonly z: number }[]): void {
    this.eventLog.record(at.map(({ x, y, z }) => ({ x, y, z, state: this.stateAt(x, y, z), digest: this.digestAt(x, y, z) })));
  }

  private persist(): void {
    if (this.directory !== null) this.directory.saveSections(this.store, this.store.takeDirty());
  }
}
