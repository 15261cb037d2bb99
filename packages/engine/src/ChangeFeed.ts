import { randomBytes } from "node:crypto";
import { Interner, fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { Box3 } from "@mcb/recipe";
import { inBox, type Vec3 } from "./Geometry.js";

export interface BlockChange {
  readonly seq: number;
  readonly pos: Vec3;
  readonly state: string;
  /** `operation`: confirmed by one of our operations; `external`: observed from the world. */
  readonly source: "operation" | "external";
  readonly operation_id?: string;
}

export interface ChangePage {
  readonly changes: BlockChange[];
  readonly next_cursor: string;
  /** False when `limit` cut the page short: call again with `next_cursor`. */
  readonly complete: boolean;
}

const GAP = -2;
const CURSOR = /^ch1\.([0-9a-f]{16})\.(\d{1,15})$/;

/**
 * Recent block changes for region_changes, held in process memory as a bounded ring. A cursor is
 * stale (resync_required) when it comes from another process, when the ring overwrote entries it
 * still needed, or when the world's event log lost continuity after it was issued.
 */
export class ChangeFeed {
  private readonly id = randomBytes(8).toString("hex");
  private readonly xyz: Int32Array;
  private readonly state: Uint32Array;
  private readonly op: Int32Array;
  /** Interned states and operation ids. */
  private readonly strings = new Interner();
  private head = 0;
  private continuityFrom = 0;

  constructor(private readonly capacity: number) {
    this.xyz = new Int32Array(capacity * 3);
    this.state = new Uint32Array(capacity);
    this.op = new Int32Array(capacity);
  }

  /** Records one change; `operationId` null for an external change. */
  push(x: number, y: number, z: number, state: string, operationId: string | null): void {
    const slot = this.head % this.capacity;
    this.xyz[slot * 3] = x;
    this.xyz[slot * 3 + 1] = y;
    this.xyz[slot * 3 + 2] = z;
    this.state[slot] = this.strings.id(state);
    this.op[slot] = operationId === null ? -1 : this.strings.id(operationId);
    this.head++;
  }

  /** The world's event log lost continuity: every earlier cursor must resync. */
  markGap(): void {
    // A marker entry, so that a cursor taken at the current head is also before the gap.
    this.op[this.head % this.capacity] = GAP;
    this.head++;
    this.continuityFrom = this.head;
  }

  cursor(): string {
    return `ch1.${this.id}.${this.head}`;
  }

  page(cursor: string, box: Box3, limit: number): Result<ChangePage> {
    const m = CURSOR.exec(cursor);
    if (m === null) return fail(mcbError("invalid_request", "malformed change cursor", { reason: "cursor" }));
    const from = Number(m[2]);
    const resync = (why: string): Result<never> =>
      fail(mcbError("resync_required", `change cursor is stale (${why}); take a fresh region_inspect summary and a new cursor`, { reason: why, cursor: this.cursor() }));
    if (m[1] !== this.id) return resync("issued before a restart");
    if (from > this.head) return fail(mcbError("invalid_request", "change cursor is from the future", { reason: "cursor" }));
    if (from < this.continuityFrom) return resync("world event log lost continuity");
    if (from < this.head - this.capacity) return resync("changes since the cursor were dropped");
    const changes: BlockChange[] = [];
    let at = from;
    for (; at < this.head && changes.length < limit; at++) {
      const slot = at % this.capacity;
      const x = this.xyz[slot * 3]!, y = this.xyz[slot * 3 + 1]!, z = this.xyz[slot * 3 + 2]!;
      const op = this.op[slot]!;
      if (op === GAP || !inBox(box, x, y, z)) continue;
      changes.push({
        seq: at,
        pos: { x, y, z },
        state: this.strings.values[this.state[slot]!]!,
        source: op < 0 ? "external" : "operation",
        ...(op < 0 ? {} : { operation_id: this.strings.values[op]! }),
      });
    }
    // Skip non-matching tail entries so an idle region returns the head cursor.
    while (changes.length >= limit && at < this.head && !this.matchesAt(at, box)) at++;
    return ok({ changes, next_cursor: `ch1.${this.id}.${at}`, complete: at === this.head });
  }

  private matchesAt(at: number, box: Box3): boolean {
    const slot = at % this.capacity;
    return this.op[slot] !== GAP && inBox(box, this.xyz[slot * 3]!, this.xyz[slot * 3 + 1]!, this.xyz[slot * 3 + 2]!);
  }
}
