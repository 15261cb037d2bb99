/** What a background job (a paste, a terrain job, a big build, a batch undo) tells whoever watches it, after each step and once at its end. */
export interface JobProgress {
  readonly kind: "paste" | "terrain" | "build" | "undo";
  /** The paste_id, terrain_id, build_id, or (undo) the batch undone. */
  readonly id: string;
  /** Steps finished (tiles, or operations undone or skipped) of `total`. */
  readonly done: number;
  readonly total: number;
  /** Blocks written (undo: restored) so far. */
  readonly blocks: number;
  readonly state: "running" | "done" | "stopped" | "failed";
}

export type JobProgressSink = (p: JobProgress) => void;
