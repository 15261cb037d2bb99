import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockEntityPredicate } from "@mcb/blocks";
import { MemoryWorld } from "@mcb/adapter-memory";
import { Engine, openJournal, type CasBatchResult, type CasResult, type CasSlice, type Journal, type RequestContext } from "@mcb/engine";
import { BatchingWorld, sharedRegistry, unwrap } from "../src/index.js";

/**
 * The batching twin (`BatchingWorld`) with instruments, over the memory world: its own batch loop,
 * the same order and stop after the first slice with mismatches, that also records every position a
 * compare-and-set changed, can let a person edit before a batch is sent, and can crash the host
 * after some slices of a batch. `runPastMismatch` is a planted bug: the batch goes on after a
 * mismatch (and says it stopped).
 */
class RecordingBatchingWorld extends BatchingWorld {
  readonly written = new Map<string, string>();
  batches = 0;
  beforeBatch: (n: number) => void = () => {};
  crash: { batch: number; after: number } | null = null;
  constructor(
    private readonly memory: MemoryWorld,
    private readonly runPastMismatch = false,
  ) {
    super(memory);
  }
  override async compareAndSet(slice: CasSlice): Promise<CasResult> {
    const r = await this.inner.compareAndSet(slice);
    for (const w of slice.writes.slice(0, r.written)) this.written.set(`${w.x},${w.y},${w.z}`, w.after);
    return r;
  }
  override async compareAndSetBatch(slices: readonly CasSlice[]): Promise<CasBatchResult> {
    const n = this.batches++;
    this.beforeBatch(n);
    const results: CasResult[] = [];
    let stopped: CasBatchResult["stopped"];
    for (const [k, s] of slices.entries()) {
      if (this.crash !== null && this.crash.batch === n && this.crash.after === k) {
        this.memory.kill(); // the host dies here: the next call throws HostCrash, and so does every later one
        await this.inner.compareAndSet(s);
      }
      const r = await this.compareAndSet(s);
      if (stopped === undefined) results.push(r);
      if (r.mismatches.length > 0 && stopped === undefined) {
        stopped = { slice: k, reason: "mismatch" };
        if (!this.runPastMismatch) break;
      }
    }
    return stopped === undefined ? { results } : { results, stopped };
  }
}

const PROJECT = "p";
const OWNER = "00000000-0000-4000-8000-000000000001";
const agent: RequestContext = { principal: { playerId: OWNER, role: "agent" }, projectId: PROJECT };
const AIR = "minecraft:air",
  STONE = "minecraft:stone";
const PERSON = ["minecraft:glass", AIR, STONE, "minecraft:dirt"];

const scenario = fc.record({
  size: fc.record({ x: fc.integer({ min: 2, max: 12 }), y: fc.integer({ min: 1, max: 3 }), z: fc.integer({ min: 2, max: 12 }) }),
  sliceSize: fc.integer({ min: 2, max: 24 }),
  window: fc.integer({ min: 2, max: 6 }),
  /** Positions already stone before the plan is prepared (skipped, not ours). */
  stoneAlready: fc.array(fc.nat(), { maxLength: 6 }),
  /** A person's edits, each made just before batch `batch` is sent. */
  edits: fc.array(fc.record({ batch: fc.integer({ min: 0, max: 8 }), at: fc.nat(), state: fc.constantFrom(...PERSON) }), { maxLength: 6 }),
  crash: fc.option(fc.record({ batch: fc.integer({ min: 0, max: 6 }), after: fc.integer({ min: 0, max: 5 }) }), { nil: null }),
});

/** Write-set positions a journal says an operation wrote (confirmed), and those of its open intents. */
function journalled(journal: Journal, operationId: string, planId: string): { confirmed: Set<string>; open: Set<string> } {
  const plan = journal.getPlan(planId)!;
  const confirmed = new Set<string>(),
    open = new Set<string>();
  for (const s of journal.slices(operationId)) {
    const bits = s.written ?? s.intent;
    for (let i = s.start; i < s.end; i++) {
      const off = i - s.start;
      if ((bits[off >> 3]! >> (off & 7)) & 1) (s.written === null ? open : confirmed).add(`${plan.pos[i * 3]},${plan.pos[i * 3 + 1]},${plan.pos[i * 3 + 2]}`);
    }
  }
  return { confirmed, open };
}

function property(planted: boolean) {
  return fc.asyncProperty(scenario, async (sc) => {
    const registry = sharedRegistry();
    const memory = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry) });
    const world = new RecordingBatchingWorld(memory, planted);
    const journal = openJournal(":memory:");
    const area = { minX: -64, minY: -64, minZ: -64, maxX: 63, maxY: 319, maxZ: 63 };
    const open = () =>
      Engine.open({
        adapter: world,
        journal,
        registry,
        projects: [{ projectId: PROJECT, ownerId: OWNER, area }],
        limits: { sliceSize: sc.sliceSize, sliceWindow: sc.window },
      });
    let engine = await open();
    try {
      const box: [number, number, number][] = [];
      for (let y = 64; y < 64 + sc.size.y; y++) for (let z = 0; z < sc.size.z; z++) for (let x = 0; x < sc.size.x; x++) box.push([x, y, z]);
      for (const i of sc.stoneAlready) memory.externalEdit(...box[i % box.length]!, STONE, { emitEvent: false });
      const recipe = {
        version: 1,
        operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: sc.size.x - 1, y: 63 + sc.size.y, z: sc.size.z - 1 }, block: STONE }],
      };
      const plan = unwrap(await engine.buildPrepare(agent, { recipe }));
      // Stone everywhere already: the plan changes nothing, and build_apply rightly refuses it (empty_plan).
      if (plan.changed_blocks === 0) return;
      const person = new Map<string, string>(); // each position's last edit by the person
      // Each edit changes its block (an edit that leaves the block as it was, or puts back what was
      // there a moment before, is invisible to any compare-and-set), one edit per block.
      world.beforeBatch = (n) => {
        for (const e of sc.edits.filter((x) => x.batch === n)) {
          const p = box[e.at % box.length]!;
          if (person.has(p.join(",")) || memory.stateAt(...p) === e.state) continue;
          memory.externalEdit(...p, e.state);
          person.set(p.join(","), e.state);
        }
      };
      world.crash = sc.crash;
      const op = unwrap(await engine.buildApply(agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "k" }));
      await engine.settle();
      const crashed = engine.stopped;
      const { confirmed, open: unfinished } = journalled(journal, op.operation_id, plan.plan_id);
      const now = async (key: string) => {
        const [x, y, z] = key.split(",").map(Number) as [number, number, number];
        const r = await memory.read({ minX: x, minY: y, minZ: z, maxX: x, maxY: y, maxZ: z });
        return r.palette[r.states[0]!]!;
      };
      if (crashed) {
        // Everything the world holds from us is under review: confirmed, or in an open intent.
        for (const key of world.written.keys())
          if (!confirmed.has(key) && !unfinished.has(key)) throw new Error(`${key} written by the crashed operation, outside its journalled mask`);
        memory.restart();
        engine.close();
        engine = await open();
        const status = unwrap(await engine.operationStatus(agent, { operation_id: op.operation_id })).status;
        if (unfinished.size > 0 && status !== "recovery_required") throw new Error(`after the crash: ${status}, not recovery_required`);
        return;
      }
      // The journal holds exactly what the world says we wrote.
      const ours = [...world.written.keys()].sort();
      if (JSON.stringify([...confirmed].sort()) !== JSON.stringify(ours))
        throw new Error(`journal says written ${confirmed.size}, the world saw ${ours.length}`);
      if (unfinished.size > 0) throw new Error(`an ended operation left ${unfinished.size} positions in open intents`);
      // A person's edit is never overwritten.
      for (const [key, state] of person) if ((await now(key)) !== state) throw new Error(`the person's ${state} at ${key} was overwritten`);
      const status = unwrap(await engine.operationStatus(agent, { operation_id: op.operation_id }));
      if (person.size === 0) {
        if (status.status !== "applied") throw new Error(`no edits, yet ${status.status}`);
        for (const p of box) if ((await now(p.join(","))) !== STONE) throw new Error(`${p} not built`);
      }
    } finally {
      engine.close();
    }
  });
}

describe("the applier's windows over a world that takes batches (intents in one commit, the next window prepared while one runs)", () => {
  it("journals exactly what the world wrote, never overwrites a person's edit, and leaves a crash under review (property)", async () => {
    await fc.assert(property(false), { numRuns: 150 });
  }, 120_000);

  it("catches a planted batch that runs on past a mismatch", async () => {
    const caught = await fc.assert(property(true), { numRuns: 150, endOnFailure: true }).then(
      () => null,
      (e: unknown) => e as { cause?: unknown },
    );
    expect(String(caught?.cause ?? caught)).toMatch(/journal says written|outside its journalled mask|overwritten/);
  }, 120_000);
});
