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
