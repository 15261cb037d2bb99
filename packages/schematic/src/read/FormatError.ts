import { mcbError, type McbError } from "@mcb/blocks";

/** A refusal found while walking a file: thrown inside the readers, returned as a Result at the edge. */
export class FormatError extends Error {
  constructor(readonly error: McbError) {
    super(error.message);
    this.name = "FormatError";
  }
}

/** invalid_request for a malformed field, with its path. */
export function malformed(message: string, path: string, extra: Record<string, unknown> = {}): FormatError {
  return new FormatError(mcbError("invalid_request", `schematic ${path}: ${message}`, { reason: "schematic_format", path, ...extra }));
}

/** budget_exceeded for a configured limit. */
export function overLimit(message: string, reason: string, limit: number, extra: Record<string, unknown> = {}): FormatError {
  return new FormatError(mcbError("budget_exceeded", message, { reason, limit, ...extra }));
}
