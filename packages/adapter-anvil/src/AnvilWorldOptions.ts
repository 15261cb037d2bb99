import type { BlockRegistry } from "@mcb/blocks";

/** How a save is opened as a world (`AnvilWorld.open`). */
export interface AnvilWorldOptions {
  /** The save folder (the one holding level.dat). */
  readonly dir: string;
  /** Identity the journal binds to; default: derived from the folder's path. */
  readonly worldId?: string;
  readonly epoch?: number;
  /**
   * The registry asked for (`--mc-version`); default: the save's own release's, the newest for a
   * new save. A save mcb edits must be of its release (else `version_mismatch`); a read-only save
   * (older or newer) is read with it; a new save is made in it. See `saveVersionOf`.
   */
  readonly registry?: BlockRegistry;
  /**
   * mcb's own world: a missing save is created (26.1 layout, flat ground) and missing chunks are
   * made with the flat ground. Without it the save must exist and nothing is ever generated.
   */
  readonly flatGround?: boolean;
  /** A folder outside the save for the log of people's edits made through `externalEdits` (kept across restarts). */
  readonly eventDir?: string;
  /** Decoded chunks kept in memory (default 1024, about 200 MB at most). */
  readonly maxChunks?: number;
  /** Changed chunks that trigger a save (default 256); 0: write-through, every write is saved as it is made. */
  readonly maxUnsavedChunks?: number;
  /** Save this long after the last write (default 2000 ms), like a server's autosave; 0: never on a timer. */
  readonly idleSaveMs?: number;
}

/** A block a person sets (`externalEdits`), with its block-entity data if it has any. */
export interface PersonBlock {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly state: string;
  readonly data?: Uint8Array;
}
