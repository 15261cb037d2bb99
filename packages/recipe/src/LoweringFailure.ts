import { mcbError, type McbError } from "@mcb/blocks";

/** A recipe path (operations[2].block…), built only when an error needs it. */
export type Path = () => string;

/** Internal control flow of lowering: carries a structured error out of the recursive walk. */
export class LoweringFailure extends Error {
  constructor(readonly error: McbError) {
    super(error.message);
  }
}

/** A recipe over a limit, found before anything proportional to its size is allocated. */
export function budget(message: string, details: Record<string, unknown>): LoweringFailure {
  return new LoweringFailure(mcbError("budget_exceeded", message, { stage: "preflight", ...details }));
}

/** At most this many unknown ids named in one refusal (the count is exact). */
const MAX_UNKNOWN_REPORTED = 16;

/**
 * Every unknown block id of a recipe in one refusal, each with its first path and suggestions; the
 * first one's id, suggestions and path stay at the top of `details` as a single refusal has them.
 */
export function unknownBlocks(list: readonly { id: string; path: string; suggestions: unknown; message: string }[]): McbError {
  const first = list[0]!;
  const message =
    list.length === 1
      ? first.message
      : `${list.length} unknown block ids: ${list
          .slice(0, MAX_UNKNOWN_REPORTED)
          .map((u) => u.message.replace(/^unknown block /, ""))
          .join("; ")}`;
  return mcbError("unsupported_block", message, {
    reason: "unknown_block",
    id: first.id,
    suggestions: first.suggestions,
    path: first.path,
    count: list.length,
    unknown: list.slice(0, MAX_UNKNOWN_REPORTED).map((u) => ({ id: u.id, path: u.path, suggestions: u.suggestions })),
  });
}
