import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AnvilWorld } from "@mcb/adapter-anvil";
import { MemoryWorld } from "@mcb/adapter-memory";
import { PortWorld } from "@mcb/adapter-port";
import { blockEntityPredicate, formatState, type BlockRegistry } from "@mcb/blocks";
import type { CasWrite, WorldAdapter } from "@mcb/engine";
import { sharedRegistry, startMinestomHost } from "../src/index.js";

/**
 * The seeds' registry probe, on our three worlds: every default state of the 26.2 registry (1,196)
 * and, for the 797 blocks with properties, their 5,392 deduplicated single-property cases (the
 * default and each other value of each property), placed fresh on air, read back, edited to
 * another state of the same block (the default, or its first variant), read back, and restored to
 * air — through the memory world, a 26.2 save (written, then read again from disk by a new
 * process's worth of state) and the live Minestom 26.2 host over the world port. Zero failures.
 */
const registry = sharedRegistry();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Case {
  readonly state: string;
  /** A state of the same block to edit it to. */
  readonly other: string;
}

/** Defaults of every block, then each block's single-property variants (deduplicated: the default counted once). */
function cases(reg: BlockRegistry): { defaults: Case[]; variations: Case[] } {
  const defaults: Case[] = [],
    variations: Case[] = [];
  for (const t of reg.blockTypes.values()) {
    const variants: string[] = [];
    for (const p of t.properties)
      for (const v of p.values) {
        if (v === t.defaults[p.name]) continue;
        variants.push(formatState(t.id, { ...t.defaults, [p.name]: v }));
      }
    defaults.push({ state: t.defaultState, other: variants[0] ?? t.defaultState });
    if (t.properties.length === 0) continue;
    variations.push({ state: t.defaultState, other: variants[0]! });
    for (const v of variants) variations.push({ state: v, other: t.defaultState });
  }
  return { defaults, variations };
}

const WIDTH = 80;
/** Position k: a grid around the origin at y 100 (one layer; no physics in our worlds or the host). */
const at = (k: number) => ({ x: -32 + (k % WIDTH), y: 100, z: -32 + Math.floor(k / WIDTH) });

/** Writes `after` over `before` at every case's position, in slices of at most 512 (the port's limit). */
async function writeAll(
  world: WorldAdapter,
  states: readonly { before: string; after: string }[],
  isEntity: (s: string) => boolean,
  digests: Map<number, string | null>,
): Promise<void> {
  for (let s = 0; s < states.length; s += 512) {
    const writes: CasWrite[] = states
      .slice(s, s + 512)
      .map((c, i) => ({ ...at(s + i), before: c.before, beforeDigest: digests.get(s + i) ?? null, after: c.after }));
    const r = await world.compareAndSet({ checks: [], writes });
    if (r.written !== writes.length) throw new Error(`slice at ${s}: wrote ${r.written} of ${writes.length}: ${JSON.stringify(r.mismatches[0])}`);
    writes.forEach((w, i) => digests.set(s + i, isEntity(w.after) ? (r.entityDigests.get(i) ?? null) : null));
  }
}

/** The states at every case's position, one read of the grid. */
async function readAll(world: WorldAdapter, n: number): Promise<string[]> {
  const rows = Math.ceil(n / WIDTH);
  const r = await world.read({ minX: -32, minY: 100, minZ: -32, maxX: -32 + WIDTH - 1, maxY: 100, maxZ: -32 + rows - 1 });
  return Array.from({ length: n }, (_, k) => r.palette[r.states[k]!]!);
}

/** Fresh placement, a same-material edit and the restore, each read back; the failures (state, phase, what came back). */
async function probe(world: WorldAdapter, list: readonly Case[], reopen?: () => Promise<WorldAdapter>): Promise<string[]> {
  const isEntity = blockEntityPredicate(registry);
  const failures: string[] = [];
  const digests = new Map<number, string | null>();
  const check = async (phase: string, want: (c: Case) => string): Promise<void> => {
    if (reopen !== undefined) world = await reopen();
    const got = await readAll(world, list.length);
    list.forEach((c, k) => {
      if (got[k] !== want(c) && failures.length < 10) failures.push(`${phase} ${c.state}: read ${got[k]}`);
    });
  };
  await writeAll(
    world,
    list.map((c) => ({ before: "minecraft:air", after: c.state })),
    isEntity,
    digests,
  );
  await check("placed", (c) => c.state);
  await writeAll(
    world,
    list.map((c) => ({ before: c.state, after: c.other })),
    isEntity,
    digests,
  );
  await check("edited", (c) => c.other);
  await writeAll(
    world,
    list.map((c) => ({ before: c.other, after: "minecraft:air" })),
    isEntity,
    digests,
  );
  await check("restored", () => "minecraft:air");
  return failures;
}

describe("every 26.2 state placed and read back (the seeds' registry probe): memory world, a 26.2 save, the Minestom 26.2 host", () => {
  const { defaults, variations } = cases(registry);

  it("counts the seeds' catalog: 1,196 defaults, 5,392 single-property cases of 797 blocks", () => {
    expect(defaults).toHaveLength(1196);
    expect(variations).toHaveLength(5392);
    expect(new Set(variations.map((c) => c.state.replace(/\[.*$/, ""))).size).toBe(797);
    expect(new Set(variations.map((c) => c.state)).size).toBe(5392);
  });

  it("the memory world: zero failures", async () => {
    for (const list of [defaults, variations]) expect(await probe(new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry) }), list)).toEqual([]);
  });

  it("a 26.2 save on disk (read back after each phase from a reopened save): zero failures", { timeout: 180_000 }, async () => {
    for (const list of [defaults, variations]) {
      const dir = join(mkdtempSync(join(tmpdir(), "mcb-registry-")), "save");
      dirs.push(join(dir, ".."));
      let open: AnvilWorld = await AnvilWorld.open({ dir, flatGround: true, idleSaveMs: 0 });
      const reopen = async (): Promise<WorldAdapter> => {
        await open.close();
        open = await AnvilWorld.open({ dir, flatGround: true, idleSaveMs: 0 });
        expect(open.version.registry.minecraftVersion).toBe("26.2");
        return open;
      };
      try {
        expect(await probe(open, list, reopen)).toEqual([]);
      } finally {
        await open.close();
      }
    }
  });

  it("the Minestom 26.2 host over the world port: zero failures", { timeout: 240_000 }, async () => {
    const host = await startMinestomHost();
    try {
      const world = await PortWorld.connect({ url: host.url, token: host.token });
      try {
        expect((await world.info()).minecraftVersion).toBe("26.2");
        for (const list of [defaults, variations]) expect(await probe(world, list)).toEqual([]);
      } finally {
        await world.close();
      }
    } finally {
      await host.stop();
      host.dispose();
    }
  });
});
