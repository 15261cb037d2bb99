import { createHash, timingSafeEqual } from "node:crypto";

/** A token's SHA-256: what is kept and compared, so every comparison takes the same time whatever the lengths. */
export function digestOf(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Whether `presented` is the token whose digest is `digest`, in constant time. */
export function matches(presented: string, digest: Buffer): boolean {
  return timingSafeEqual(digestOf(presented), digest);
}
