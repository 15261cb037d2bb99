import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RegionFile, decodeChunk } from "@mcb/adapter-anvil";
import { cli, openWorld, root, tempDirs } from "../support.js";

const stateDir = tempDirs("mcb-save-crash-");
const BLOCKS = 312 * 320;
/** 312 × 320 blocks at y 64: 99,840 writes over 400 chunks, so the world saves (256 changed chunks) while it applies. */
const BIG = { version: 1, operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 311, y: 64, z: 319 }, block: "minecraft:stone" }] };

/**
 * Runs `mcb build` and kills it (SIGKILL) `afterMs` after it started writing, or after the save
 * first wrote chunks to the region file (`afterSave`): resolves with its stderr.
 */
async function killedBuild(state: string, recipe: string, afterMs: number, afterSave: boolean): Promise<string> {
  const p = spawn(process.execPath, [cli, "build", recipe, "--state", state, "--max-rate", "60000"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  let armed = false;
  const exited = new Promise((r) => p.once("exit", r));
  p.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    if (armed || !/writes \d+ blocks in/.test(stderr)) return;
    armed = true;
    void (async () => {
      const region = join(state, "world", "dimensions", "minecraft", "overworld", "region", "r.0.0.mca");
      while (afterSave && p.exitCode === null && (!existsSync(region) || statSync(region).size <= 8192)) await new Promise((r) => setTimeout(r, 5));
      setTimeout(() => p.kill("SIGKILL"), afterMs);
    })();
  });
  await exited;
  return stderr;
}

/** Every chunk of every region file of the embedded save decodes. */
function decodeAll(state: string): number {
  const dir = join(state, "world", "dimensions", "minecraft", "overworld", "region");
  let n = 0;
  for (const name of readdirSync(dir)) {
    const m = /^r\.(-?\d+)\.(-?\d+)\.mca$/.exec(name);
    if (m === null) continue;
    const r = RegionFile.open(join(dir, name), Number(m[1]), Number(m[2]), false)!;
    for (const c of r.chunks()) {
      const stored = r.read(c.x, c.z)!;
      decodeChunk(stored.nbt, c.x, c.z, stored.compression, { dataVersion: 4786, maxDataVersion: 4790 }, name);
      n++;
    }
    r.close();
  }
  return n;
}

async function openAfterKill(state: string): Promise<Awaited<ReturnType<typeof openWorld>>> {
  // The killed process's session.lock holder exits once its pipe closes: retry for a moment.
  for (let i = 0; ; i++) {
    try {
      return await openWorld(state);
    } catch (e) {
      if (i > 50 || !/busy|open in Minecraft/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe("kill -9 while building into the embedded save", () => {
  for (const [afterMs, afterSave] of [
    [150, false],
    [0, true],
    [150, true],
  ] as const) {
    it(`killed ${afterSave ? (afterMs === 0 ? "while it saves for the first time" : `${afterMs} ms after its first save`) : `${afterMs} ms after it started writing`}: every chunk decodes, and recovery accounts for every block exactly (review, abandon, undo back to the ground)`, async () => {
      const state = await stateDir();
      const recipe = join(state, "big.json");
      writeFileSync(recipe, JSON.stringify(BIG));
      const stderr = await killedBuild(state, recipe, afterMs, afterSave);
      const id = /operation (op_\w+) writes/.exec(stderr)?.[1];
      expect(id, stderr).toBeDefined();
      expect(decodeAll(state)).toBeGreaterThanOrEqual(0);
      const w = await openAfterKill(state);
      try {
        const box = { minX: 0, minY: 64, minZ: 0, maxX: 311, maxY: 64, maxZ: 319 };
        const count = async (state: string): Promise<number> => {
          let n = 0;
          for (let z = 0; z < 320; z += 32) {
            const r = await w.world.read({ ...box, minZ: z, maxZ: z + 31 });
            const k = r.palette.indexOf(state);
            for (const s of r.states) if (s === k) n++;
          }
          return n;
        };
        const stone = await count("minecraft:stone");
        if (afterSave && afterMs > 0) expect(stone).toBeGreaterThan(0); // the first save reached the disk before the kill
        expect(stone + (await count("minecraft:air"))).toBe(BLOCKS); // nothing but the plan's before and after
        const op = await w.engine.operationStatus(w.ctx, { operation_id: id! });
        if (!op.ok) throw new Error(op.error.message);
        if (op.value.status === "applied") {
          expect(stone).toBe(BLOCKS); // finished and saved before the kill
          return;
        }
        expect(op.value.status).toBe("recovery_required");
        const review = await w.engine.recoveryReview(w.admin, { operation_id: id! });
        if (!review.ok) throw new Error(review.error.message);
        // The review sees the world exactly: what holds the plan's block, what is still the original.
        expect(review.value.matchesAfter).toBe(stone);
        expect(review.value.matchesAfter + review.value.matchesBefore).toBe(review.value.positions);
        // Reviewed: every confirmed slice and the unfinished one; the ones the save lost are named as lost.
        expect(review.value.positions).toBeLessThanOrEqual(BLOCKS);
        expect(review.value.lost).toBeLessThanOrEqual(review.value.matchesBefore);
        const abandoned = await w.engine.recoveryAbandon(w.admin, { operation_id: id!, expected_digest: review.value.currentDigest });
        expect(abandoned.ok).toBe(true);
        const undo = await w.engine.operationUndoPrepare(w.ctx, { operation_id: id! });
        if (stone === 0) return; // nothing of it reached the save: nothing to undo
        if (!undo.ok) throw new Error(undo.error.message);
        expect(undo.value.changed_blocks).toBe(stone); // exactly the blocks of ours the save holds
        expect(undo.value.conflicts.count).toBe(review.value.lost); // the writes the save lost are not restored, and said so
        const applied = await w.engine.buildApply(w.ctx, { plan_id: undo.value.plan_id, plan_hash: undo.value.plan_hash, idempotency_key: `undo-${id}` });
        if (!applied.ok) throw new Error(applied.error.message);
        await w.engine.settle();
        expect(await count("minecraft:stone")).toBe(0);
      } finally {
        await w.close();
      }
      expect(decodeAll(state)).toBeGreaterThan(0);
    }, 120_000);
  }
});
