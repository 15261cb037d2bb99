import type { ErrorCode } from "@mcb/blocks";
import type { WorldRefusal } from "@mcb/engine";

/**
 * What can be wrong with a world save, as a discriminated `code`:
 * - `corrupt_region`: a region file's header is unreadable (sectors overlapping, pointing into the
 *   header or past the end of the file);
 * - `corrupt_chunk`: one chunk cannot be decoded (truncated, unknown compression, bad NBT, packed
 *   data of the wrong length, a palette index outside the palette);
 * - `version_mismatch`: a chunk or save older or newer than this build can edit;
 * - `chunk_missing`: a write into a chunk the save does not have (we never generate in a person's save);
 * - `busy`: the game or another program holds the save (`session.lock`);
 * - `not_a_save`: the folder has no level.dat, or mixes the 26.1 and the older folder layout;
 * - `bad_data_pack`: a data pack or dimension type the world's height depends on cannot be read;
 * - `save_failed`: writing the changed chunks failed (a full disk, permissions): nothing was marked
 *   saved, and the changes are kept for the next save.
 * Every error names the file and, where there is one, the chunk.
 */
export type SaveErrorCode = "corrupt_region" | "corrupt_chunk" | "version_mismatch" | "chunk_missing" | "busy" | "not_a_save" | "bad_data_pack" | "save_failed";

export interface ChunkRef {
  readonly x: number;
  readonly z: number;
}

/** The structured error each code answers with (busy and save_failed are worth retrying); the code itself is `details.reason`. */
const REFUSALS: Readonly<Record<SaveErrorCode, ErrorCode>> = {
  corrupt_region: "world_damaged",
  corrupt_chunk: "world_damaged",
  version_mismatch: "version_mismatch",
  chunk_missing: "out_of_bounds",
  busy: "busy",
  not_a_save: "not_found",
  bad_data_pack: "world_damaged",
  save_failed: "busy",
};

export class SaveError extends Error implements WorldRefusal {
  readonly saveError = true;
  constructor(
    readonly code: SaveErrorCode,
    message: string,
    readonly details: { readonly file?: string; readonly chunk?: ChunkRef; readonly [key: string]: unknown } = {},
  ) {
    super(message);
    this.name = "SaveError";
  }

  /** How the engine answers when a world call meets this error. */
  get refusal(): WorldRefusal["refusal"] {
    return { code: REFUSALS[this.code], retryable: this.code === "busy" || this.code === "save_failed", details: { reason: this.code, ...this.details } };
  }
}

export function isSaveError(error: unknown): error is SaveError {
  return error instanceof Error && (error as { saveError?: unknown }).saveError === true;
}
