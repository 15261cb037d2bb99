/**
 * How the MCP server answers, as the person who starts it chooses (`mcb mcp --text summary
 * --confirm-above N`): shared by the command line, which parses them, and the server.
 */
export interface AnswerOptions {
  /**
   * The text block beside an answer's structuredContent: `full` (default) is the same JSON, as the
   * MCP spec recommends for clients that read only text; `summary` is a short line naming its
   * scalar fields, for clients that read structuredContent (0.59× the bytes of a short session).
   * Refusals always carry the whole error as text.
   */
  readonly textCopy?: "full" | "summary";
  /** Plans of at least this many blocks are put to the person before they are applied, when the client can ask (default 20,000). */
  readonly confirmAbove?: number;
}

export const TEXT_COPIES = ["full", "summary"] as const;
