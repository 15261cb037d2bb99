import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { ClaimJournal } from "../store/Journal.js";

/** Side of the square regions a lease covers (a region file's 512 blocks). */
export const LEASE_REGION = 512;
/** How long a claim lasts without renewal when a bridge does not say (a dead bridge's work is recovered after it). */
export const DEFAULT_CLAIM_TTL_MS = 15_000;

/** Thrown when a bridge finds that a claim it relied on is held by another bridge: it stops writing for good. */
export class ClaimLost extends Error {
  readonly code = "claim_lost";
  constructor(
    readonly claim: string,
    readonly holder: string | null,
  ) {
    super(`another bridge (${holder ?? "unknown"}) took over ${claim}: this bridge stops writing; restart it`);
    this.name = "ClaimLost";
  }
}

/** Names of the leases covering a box's columns, sorted (leases are taken in one order by everyone). */
export function leaseNames(minX: number, minZ: number, maxX: number, maxZ: number): string[] {
  const out: string[] = [];
  for (let rx = Math.floor(minX / LEASE_REGION); rx <= Math.floor(maxX / LEASE_REGION); rx++)
    for (let rz = Math.floor(minZ / LEASE_REGION); rz <= Math.floor(maxZ / LEASE_REGION); rz++) out.push(`region:${rx},${rz}`);
  return out.sort();
}

/**
 * What one bridge (one engine) holds in the journal it shares with other bridges (docs/DESIGN.md
 * "Several bridges"): each of its operations, from before it is created until it ends
 * (`op:<id>`: the other bridges leave it alone, and recover it only once the claim expired, one
 * claimant), and, while an operation writes, leases on the regions its plan covers
 * (`region:<rx>,<rz>`: two writers never interleave slices in one region). A timer renews them;
 * `fence` renews an operation's claims right before each journal commit and each world write and
 * throws `ClaimLost` when another bridge took it over, so a bridge that stalled past the expiry
 * never writes again. A fence within a third of the expiry after the last renewal (its own or the
 * timer's) needs no round trip: no other bridge can take a claim before it expires, so the
 * claims are still this bridge's for at least two thirds of the expiry (10 s by default) after it
 * returns; a bridge that stalled longer asks the journal. An exclusive bridge (a SQLite journal under the state lock) voids the
 * claims of earlier processes when it opens.
 */
export class BridgeClaims {
  readonly holder: string;
  private readonly owned = new Set<string>();
  private readonly leases = new Map<string, readonly string[]>();
  private readonly timer: NodeJS.Timeout | null;
  private orphans: NodeJS.Timeout | null = null;
  /** Per operation: until when all of its claims are known to be this bridge's (the last renewal's start + the expiry). */
  private readonly heldUntil = new Map<string, number>();

  constructor(
    private readonly journal: ClaimJournal,
    readonly options: { readonly shared: boolean; readonly holder?: string; readonly ttlMs?: number },
  ) {
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    if (!options.shared) journal.clearClaims();
    this.timer = options.shared ? setInterval(() => this.renewAll(), Math.max(50, Math.floor(this.ttlMs / 3))) : null;
    this.timer?.unref();
  }

  get ttlMs(): number {
    return this.options.ttlMs ?? DEFAULT_CLAIM_TTL_MS;
  }

  get shared(): boolean {
    return this.options.shared;
  }

  /** Takes (or renews) the operation's claim; false when a live bridge holds it. Exclusive: always true. */
  own(operationId: string): boolean {
    if (!this.shared) return true;
    if (!this.journal.claim(`op:${operationId}`, this.holder, this.ttlMs)) return false;
    this.owned.add(operationId);
    return true;
  }

  /** Renews the operation's claim and its leases; `ClaimLost` when another bridge took one. */
  fence(operationId: string): void {
    if (!this.shared) return;
    const now = Date.now();
    if (now < (this.heldUntil.get(operationId) ?? 0) - (2 * this.ttlMs) / 3) return;
    if (this.renew(operationId, now)) return;
    const held = this.held(operationId);
    // Name the first claim that is not this bridge's now (each holder asked once).
    for (const name of held) {
      const holder = this.journal.claimHolder(name);
      if (holder !== this.holder) throw new ClaimLost(name, holder);
    }
    throw new ClaimLost(held[0]!, null);
  }

  /** All of the leases or none (so two bridges never wait on each other); the operation must be owned. */
  lease(operationId: string, names: readonly string[]): boolean {
    if (!this.shared) return true;
    const got: string[] = [];
    for (const name of names) {
      if (!this.journal.claim(name, this.holder, this.ttlMs)) {
        for (const g of got) this.journal.releaseClaim(g, this.holder);
        return false;
      }
      got.push(name);
    }
    this.leases.set(operationId, names);
    this.heldUntil.delete(operationId); // the next fence renews the new leases with the rest
    return true;
  }

  /** The operation ended (or was settled): its claim and leases are given up. */
  release(operationId: string): void {
    if (!this.shared) return;
    for (const name of this.held(operationId)) this.journal.releaseClaim(name, this.holder);
    this.leases.delete(operationId);
    this.owned.delete(operationId);
    this.heldUntil.delete(operationId);
  }

  /** Renews all of an operation's claims (`now`: read before asking); false when one is not this bridge's. */
  private renew(operationId: string, now: number): boolean {
    if (!this.journal.renewClaims(this.held(operationId), this.holder, this.ttlMs)) {
      this.heldUntil.delete(operationId);
      return false;
    }
    this.heldUntil.set(operationId, now + this.ttlMs);
    return true;
  }

  /** The claims an operation of this bridge holds: its own, then its region leases. */
  private held(operationId: string): string[] {
    return [`op:${operationId}`, ...(this.leases.get(operationId) ?? [])];
  }

  /** The timer's work: every claim held is renewed (one that was lost is left to `fence` to report). */
  private renewAll(): void {
    try {
      for (const id of this.owned) this.renew(id, Date.now());
    } catch {
      // the store is unreachable: the next fence reports it where a caller waits
    }
  }

  /** Shared journals: runs `look` every half expiry (settling operations whose bridge died). */
  watchOrphans(look: () => void): void {
    if (!this.shared || this.orphans !== null) return;
    this.orphans = setInterval(
      () => {
        try {
          look();
        } catch {
          // the store is unreachable: the next look tries again, callers see the error themselves
        }
      },
      Math.max(50, Math.floor(this.ttlMs / 2)),
    );
    this.orphans.unref();
  }

  /** Whether this bridge holds the operation (it is in its queue, or running). */
  holds(operationId: string): boolean {
    return this.owned.has(operationId);
  }

  /** The process ends: renewals stop (claims are left to expire, as a dead process leaves them). */
  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    if (this.orphans !== null) clearInterval(this.orphans);
  }
}
