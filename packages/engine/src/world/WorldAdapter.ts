import { mcbError, type Box3, type ErrorCode, type McbError } from "@mcb/blocks";

/**
 * The small seam between the engine and a world (docs/DESIGN.md "Worlds", "Write rule"). An adapter owns
 * no history, limits or policy: it reads, compare-and-sets and reports external edits. Everything
 * else (journal, conflicts, undo, recovery) lives in the engine.
 */
export interface WorldAdapter {
  /** Identity, epoch (changes when the world is restored or replaced), data version, height range. */
  info(): Promise<WorldInfo>;
  /**
   * Reads an inclusive box of at most `MAX_ADAPTER_READ` positions from loaded chunks (never
   * generates terrain). Snapshot of one moment (one server tick on Paper).
   */
  read(box: Box3): Promise<RegionRead>;
  /**
   * Atomic per slice (one tick): verifies every check, then each group in order; writes a group
   * only when every write's current state and block-entity digest equal `before`. Stops at the
   * first failing group: nothing after it is written.
   */
  compareAndSet(slice: CasSlice): Promise<CasResult>;
  /**
   * External edits observed after `cursor` (null: start at the current head, no events). `gap` is
   * true when continuity was lost (cursor older than the retained log, or from another session).
   */
  events(cursor: string | null): Promise<EventPage>;
  close(): Promise<void>;
  /**
   * Optional (capability "block_entity_data"): the block-entity data (NBT bytes) in a box, by
   * position index as in `read`, for exports. Same bounds as `read`.
   */
  readBlockEntities?(box: Box3): Promise<ReadonlyMap<number, Uint8Array>>;
  /**
   * Optional (capability "saved_writes"): saves every block written so far to the world's files
   * and resolves when they are written, with the marks after it.
   */
  flush?(): Promise<SavedMarks>;
  /**
   * Optional: several slices in one call, run in order as `compareAndSet` would run each, the
   * batch stopping after the first slice with mismatches, refused or failed (the slices after it
   * never run). Resolves with the results of the slices that ran and why it stopped.
   */
  compareAndSetBatch?(slices: readonly CasSlice[]): Promise<CasBatchResult>;
}

/**
 * What a batch did. `results` are the slices that ran, in order. `stopped`, when present, names the
 * slice it stopped at: `mismatch` (its result, the last of `results`, has mismatches), `refused`
 * (the world refused it before writing any of it: `results` ends before it) or `failed` (the host
 * failed inside it: whether it wrote is unknown, `results` ends before it). Slices after a stop
 * never ran.
 */
export interface CasBatchResult {
  readonly results: readonly CasResult[];
  readonly stopped?:
    | { readonly slice: number; readonly reason: "mismatch" }
    | { readonly slice: number; readonly reason: "refused"; readonly code: string; readonly message: string }
    | { readonly slice: number; readonly reason: "failed"; readonly message: string };
}

/**
 * Which writes a world has saved to its files (capability "saved_writes"). Every compare-and-set
 * that wrote gets the next number of the host session; `savedThrough` covers every write numbered
 * up to it. A host restart starts a new session: numbers of the old one that were not covered may
 * be lost, and the engine checks them against the world (docs/DESIGN.md "Saved writes").
 */
export interface SavedMarks {
  readonly session: string;
  /** In `info` and `flush`: the newest number; in a `compareAndSet` result: this slice's (0: it wrote nothing). */
  readonly writeSeq: number;
  readonly savedThrough: number;
}

/** Optional abilities, advertised rather than stubbed. */
export type AdapterCapability = "events" | "block_entities" | "block_entity_data" | "persistence" | "saved_writes" | "fault_injection";

export interface WorldInfo {
  readonly worldId: string;
  readonly epoch: number;
  readonly minecraftVersion: string;
  readonly dataVersion: number;
  /** Inclusive build height range. */
  readonly minY: number;
  readonly maxY: number;
  readonly capabilities: readonly AdapterCapability[];
  /** With "saved_writes": the host session and its marks now. */
  readonly saved?: SavedMarks;
  /**
   * The version the world's data was saved by (a save's level.dat), when the adapter knows it. It
   * may differ from the blocks' version (`minecraftVersion`): an older save is read upgraded to it.
   */
  readonly savedBy?: { readonly dataVersion: number; readonly release: string };
  /**
   * Present when the world refuses every write (a save older or newer than the versions this build
   * writes): the engine refuses builds, undos and imports before an operation starts, with this.
   */
  readonly readOnly?: { readonly code: ErrorCode; readonly reason: string; readonly message: string };
}

/** The structured error for any write into a read-only world (before an operation starts). */
export function readOnlyRefusal(r: NonNullable<WorldInfo["readOnly"]>): McbError {
  return mcbError(r.code, r.message, { reason: "read_only_world", why: r.reason });
}

/** Largest box (in positions) one `read` call accepts. */
export const MAX_ADAPTER_READ = 32_768;

/** A chunk a world will not write (an older or newer chunk of a save): the refusal a write there would meet. */
export interface WriteRefusal {
  readonly chunk: { readonly x: number; readonly z: number };
  readonly code: ErrorCode;
  readonly message: string;
  /** The refusal's own details (`reason` first: `corrupt_region`, `chunk_not_generated` …), kept in the error. */
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface RegionRead {
  readonly box: Box3;
  /** Canonical states referenced by `states`. */
  readonly palette: readonly string[];
  /** One palette index per position, ordered y, then z, then x (x fastest). */
  readonly states: Uint32Array;
  /** SHA-256 (lowercase hex) of block-entity data, by position index; absent for plain blocks. */
  readonly digests: ReadonlyMap<number, string>;
  /** Chunks of the box a compare-and-set would refuse to write (prepare refuses plans writing there up front); absent: none. */
  readonly unwritable?: readonly WriteRefusal[];
}

/** A position the slice depends on but does not write (support, clear passage). */
export interface CasCheck {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly state: string;
  readonly digest: string | null;
}

export interface CasWrite {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly before: string;
  readonly beforeDigest: string | null;
  readonly after: string;
  /**
   * Block-entity data (NBT bytes) for the new block entity; absent: the world's rule — a same-type
   * block keeps its data, a new block entity gets defaults. Only for states that have one.
   */
  readonly afterData?: Uint8Array;
}

export interface CasSlice {
  readonly checks: readonly CasCheck[];
  readonly writes: readonly CasWrite[];
  /** Exclusive end offsets into `writes` of each indivisible group; absent: one write per group. */
  readonly groupEnds?: readonly number[];
}

export interface CasMismatch {
  readonly kind: "check" | "write";
  /** Index into `checks` or `writes`. */
  readonly index: number;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly expected: string;
  readonly expectedDigest: string | null;
  readonly actual: string;
  readonly actualDigest: string | null;
}

export interface CasResult {
  /** Number of leading writes applied (whole groups). */
  readonly written: number;
  /** Mismatches of the first failing group (or of the checks); empty when every group was written. */
  readonly mismatches: readonly CasMismatch[];
  /** Digest of the block entity now at a written position, by write index (new or preserved data). */
  readonly entityDigests: ReadonlyMap<number, string>;
  /** With "saved_writes": this slice's write number and the session's saved mark. */
  readonly saved?: SavedMarks;
}

export interface WorldEvent {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** State after the edit. */
  readonly state: string;
  readonly digest: string | null;
}

export interface EventPage {
  readonly events: readonly WorldEvent[];
  readonly cursor: string;
  readonly gap: boolean;
}

/**
 * Thrown by an adapter (or a test harness) when the host process is gone mid-call: the engine must
 * stop at once without touching the journal again, as a crashed process would.
 */
export class HostCrash extends Error {
  readonly fatal = true;
  constructor(message: string) {
    super(message);
    this.name = "HostCrash";
  }
}

export function isHostCrash(error: unknown): error is HostCrash {
  return error instanceof Error && (error as { fatal?: unknown }).fatal === true;
}

/**
 * Thrown by `compareAndSet` when the world refused the whole slice before writing any of it (a
 * state or block-entity data it cannot place, an unloaded chunk, a full queue): the engine records
 * the slice as writing nothing and ends the operation `failed` with this code, instead of leaving
 * an uncertain intent to recovery. Only for refusals that provably wrote nothing.
 */
export class SliceRefused extends Error {
  readonly sliceRefused = true;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "SliceRefused";
  }
}

export function isSliceRefused(error: unknown): error is SliceRefused {
  return error instanceof Error && (error as { sliceRefused?: unknown }).sliceRefused === true;
}

/**
 * Thrown by `read` when the box reaches into chunks the server has not loaded (a read never loads
 * or generates them). Readers that can do without those blocks (a camera) skip them; the engine's
 * other reads turn it into a retryable `busy` like any world failure.
 */
export class ChunkNotLoaded extends Error {
  readonly chunkNotLoaded = true;
  constructor(
    readonly chunk: { readonly x: number; readonly z: number } | null,
    message: string,
    /** False when waiting cannot help (a save that does not have the chunk: nothing generates it). */
    readonly retryable = true,
  ) {
    super(message);
    this.name = "ChunkNotLoaded";
  }
}

export function isChunkNotLoaded(error: unknown): error is ChunkNotLoaded {
  return error instanceof Error && (error as { chunkNotLoaded?: unknown }).chunkNotLoaded === true;
}
