import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { blockShapes, createBlockRegistry, type BlockRegistry } from "../src/index.js";

const SCRIPTS = fileURLToPath(new URL("../scripts/", import.meta.url));
const DATA = fileURLToPath(new URL("../data/", import.meta.url));

type FluidRule = (id: string, block: { liquid?: boolean }, stateKey: string) => boolean;

interface Generator {
  generateAll(): Map<string, string>;
  fluidRuleCheck(artifact: string, rule?: FluidRule): { compared: number; disagree: string[] };
  fluidByRule: FluidRule;
}

const generator = async (): Promise<Generator> => (await import(join(SCRIPTS, "generate-registry.mjs"))) as Generator;

function registryOf(version: string): BlockRegistry {
  const r = createBlockRegistry({ version });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The first line where two texts differ (1-based), with both lines; null when equal. */
function firstDifference(a: string, b: string): { line: number; committed: string; generated: string } | null {
  const x = a.split("\n"),
    y = b.split("\n");
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if (x[i] !== y[i]) return { line: i + 1, committed: (x[i] ?? "<end>").slice(0, 200), generated: (y[i] ?? "<end>").slice(0, 200) };
  return null;
}

describe("generated registry data (packages/blocks/data)", () => {
  it("is exactly what the generator makes from Minestom's data artifacts and minecraft-data (run npm run registry after a change)", async () => {
    const { generateAll } = await generator();
    const files = generateAll();
    expect([...files.keys()].sort()).toEqual(
      readdirSync(DATA)
        .filter((f) => f.endsWith(".json"))
        .sort(),
    );
    for (const [name, text] of files) expect(firstDifference(readFileSync(join(DATA, name), "utf8"), text), name).toBeNull();
    // The comparison sees a change of one value.
    const committed = readFileSync(join(DATA, "registry-26.2.json"), "utf8");
    expect(firstDifference(committed, committed.replace('"dataVersion": 4903', '"dataVersion": 4904'))).toMatchObject({
      line: 4,
      generated: '  "dataVersion": 4904,',
    });
  });

  it("26.2 carries the seeds' catalog: 1,196 blocks with 32,366 states, 1,537 items", () => {
    const r = JSON.parse(readFileSync(join(DATA, "registry-26.2.json"), "utf8")) as {
      blocks: [string, [string, string[]][], number, number | number[]][];
      items: string[];
      dataVersion: number;
      protocol: number;
    };
    expect(r.blocks).toHaveLength(1196);
    expect(r.items).toHaveLength(1537);
    expect([r.dataVersion, r.protocol]).toEqual([4903, 776]);
    expect(r.blocks.reduce((n, b) => n + b[1].reduce((m, [, v]) => m * v.length, 1), 0)).toBe(32_366);
  });

  it("which states hold a fluid (heightmaps): the game's rule agrees with every value Minestom's 26.2 dump states, and 26.1 (whose dump has none) agrees with 26.2 on every state both have", async () => {
    const { fluidRuleCheck, fluidByRule } = await generator();
    const check = fluidRuleCheck("26.2-rv3");
    expect(check.compared).toBeGreaterThan(11_000);
    expect(check.disagree).toEqual([]);
    // The check sees a wrong rule: one that forgets the blocks always underwater (kelp, seagrass …).
    const planted = fluidRuleCheck("26.2-rv3", (id, b, key) => (/kelp|seagrass|bubble_column/.test(id) ? false : fluidByRule(id, b, key)));
    expect(planted.disagree).toContain("minecraft:kelp_plant[]");
    const v26_2 = registryOf("26.2"),
      v26_1 = registryOf("26.1");
    const s2 = blockShapes(v26_2),
      s1 = blockShapes(v26_1);
    let shared = 0;
    for (const [id, type] of v26_1.blockTypes) {
      if (!v26_2.blockTypes.has(id)) continue;
      const props = type.properties.map((p) => p.values.map((v) => `${p.name}=${v}`));
      const combos = props.reduce<string[][]>((acc, vals) => acc.flatMap((a) => vals.map((v) => [...a, v])), [[]]);
      for (const c of combos) {
        const state = c.length === 0 ? id : `${id}[${c.join(",")}]`;
        if (!v26_2.resolveState(state).ok) continue;
        shared++;
        expect(s1.fluid(state), state).toBe(s2.fluid(state));
      }
    }
    expect(shared).toBeGreaterThan(25_000);
    for (const [state, fluid] of [
      ["minecraft:water[level=7]", true],
      ["minecraft:kelp[age=3]", true],
      ["minecraft:tube_coral[waterlogged=true]", true],
      ["minecraft:tube_coral[waterlogged=false]", false],
      ["minecraft:sea_pickle[pickles=2,waterlogged=false]", false],
      ["minecraft:oak_leaves[distance=1,persistent=true,waterlogged=false]", false],
    ] as const)
      for (const s of [s1, s2]) expect([state, s.fluid(state)]).toEqual([state, fluid]);
  });
});
