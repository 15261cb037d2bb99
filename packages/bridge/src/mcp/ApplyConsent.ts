import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { McpContext } from "../workspace/agent/McpContext.js";

/** Plans of at least this many changed blocks are asked about (when the client can ask its person). */
export const DEFAULT_CONFIRM_ABOVE = 20_000;

/**
 * The person at the desk, asked before a plan is applied: when the MCP client declares
 * elicitation, a plan that changes at least `confirmAbove` blocks, or one that writes over blocks a
 * person changed (`replace`), is put to the person first (its size, where it is, and how to see
 * it: camera_capture {plan_id}). A client without elicitation is not asked, as before. Declined,
 * cancelled or unanswered: `permission_denied` (`reason: "declined"`), nothing written.
 */
export class ApplyConsent {
  /** People's edits each plan prepared in this session writes over (`replace`), newest last: build_apply of that plan asks too. */
  private readonly replacedBy = new Map<string, number>();

  constructor(
    private readonly server: McpServer,
    private readonly m: McpContext,
    private readonly confirmAbove: number = DEFAULT_CONFIRM_ABOVE,
  ) {}

  /** Whether the client can ask its person (it declared elicitation). */
  get canAsk(): boolean {
    return this.server.server.getClientCapabilities()?.elicitation !== undefined;
  }

  /** A plan prepared in this session and how many blocks of people's edits it writes over (the newest 256 are kept). */
  remember(planId: string, replaced: number): void {
    if (replaced === 0) return;
    this.replacedBy.set(planId, replaced);
    if (this.replacedBy.size > 256) this.replacedBy.delete(this.replacedBy.keys().next().value!);
  }

  /**
   * A job about to write up to `size` blocks (a whole paste): asked as a plan is, when the client
   * can ask and the size reaches the threshold; `details` go with a refusal.
   */
  async confirm(message: string, size: number, details: Record<string, unknown>): Promise<Result<void>> {
    if (!this.canAsk || size < this.confirmAbove) return ok(undefined);
    return this.ask(message, `paste ${String(details.paste_id ?? "")}`, details);
  }

  /**
   * Asks when the plan calls for it; ok when applying may go on. `replaced`: blocks of people's
   * edits the plan writes over (default: what its prepare in this session said).
   */
  async check(planId: string, replaced = this.replacedBy.get(planId) ?? 0): Promise<Result<void>> {
    if (!this.canAsk) return ok(undefined);
    const writes = this.m.engine.planWrites(this.m.ctx, { plan_id: planId });
    if (!writes.ok) return ok(undefined); // the apply itself refuses it with the same words
    const count = writes.value.after.length;
    if (count < this.confirmAbove && replaced === 0) return ok(undefined);
    const r = writes.value.region!;
    const over = replaced > 0 ? `, ${replaced} of them over blocks a person changed by hand` : "";
    return this.ask(
      `Apply plan ${planId}? It changes ${count} block${count === 1 ? "" : "s"} (x ${r.minX}..${r.maxX}, y ${r.minY}..${r.maxY}, z ${r.minZ}..${r.maxZ})${over}. To see it first: camera_capture {plan_id: "${planId}"}.`,
      `plan ${planId}`,
      { plan_id: planId },
    );
  }

  /** Puts the question to the person; ok on a yes. */
  private async ask(message: string, what: string, details: Record<string, unknown>): Promise<Result<void>> {
    let answer;
    try {
      answer = await this.server.server.elicitInput({
        mode: "form",
        message,
        requestedSchema: {
          type: "object",
          properties: { apply: { type: "boolean", title: "Apply it", description: "Write these blocks into the world", default: false } },
          required: ["apply"],
        },
      });
    } catch (e) {
      return fail(declined(what, details, `the question could not be asked (${e instanceof Error ? e.message : String(e)})`));
    }
    if (answer.action === "accept" && answer.content?.apply === true) return ok(undefined);
    return fail(
      declined(
        what,
        details,
        answer.action === "accept" ? "the person answered no" : `the person ${answer.action === "decline" ? "declined" : "cancelled"} the question`,
      ),
    );
  }
}

function declined(what: string, details: Record<string, unknown>, why: string) {
  return mcbError("permission_denied", `${what} was not applied: ${why}; nothing was written`, { reason: "declined", ...details });
}
