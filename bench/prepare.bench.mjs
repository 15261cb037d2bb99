// Reported (no target): what computing connection states at preparation costs. The same recipes
// are prepared with "connections": "pinned" (baseline: compile, read, check) and "auto" (plus the
// neighbour ring reads and the game's connection rules), interleaved in one run, medians.
import { Harness, unwrap } from "@mcb/property-tests";

const RUNS = 9;
const v = (x, y, z) => ({ x, y, z });

/** A 100k solid box, and a fenced, walled yard of 2,000 connectables next to existing fences. */
const CASES = [
  ["solid 100,000-block box", [{ type: "box", min: v(0, 0, 0), max: v(99, 9, 99), block: "minecraft:stone" }]],
  [
    "yard: 1,984 fences/walls/panes/stairs + 7,744 floor blocks",
    [
      { type: "box", min: v(200, 0, 0), max: v(287, 0, 87), block: "minecraft:spruce_planks" },
      { type: "box", min: v(200, 1, 0), max: v(287, 1, 87), block: "minecraft:oak_fence", hollow: true },
      { type: "box", min: v(204, 1, 4), max: v(283, 1, 83), block: "minecraft:cobblestone_wall", hollow: true },
      { type: "box", min: v(208, 1, 8), max: v(279, 1, 79), block: "minecraft:glass_pane", hollow: true },
      { type: "box", min: v(212, 1, 12), max: v(275, 1, 75), block: "minecraft:oak_stairs[facing=north]", hollow: true },
    ],
  ],
];

async function time(h, operations, connections) {
  const t = process.hrtime.bigint();
  unwrap(await h.engine.buildPrepare(h.agent, { recipe: { version: 1, connections, operations } }));
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const h = await Harness.create({ area: { minX: -1000, minY: -64, minZ: -1000, maxX: 1000, maxY: 319, maxZ: 1000 } });
  // Existing fences along one side of the yard, so some neighbours join the plan.
  for (let x = 200; x < 288; x++)
    h.world.externalEdit(x, 1, -1, "minecraft:oak_fence[east=true,north=false,south=false,waterlogged=false,west=true]", { emitEvent: false });
  console.log(`prepare: connections "auto" vs "pinned" (baseline), median of ${RUNS} interleaved`);
  for (const [label, ops] of CASES) {
    await time(h, ops, "pinned");
    await time(h, ops, "auto");
    const pinned = [];
    const auto = [];
    for (let i = 0; i < RUNS; i++) {
      pinned.push(await time(h, ops, "pinned"));
      auto.push(await time(h, ops, "auto"));
    }
    const p = median(pinned),
      a = median(auto);
    console.log(`  ${label.padEnd(58)} pinned ${p.toFixed(1).padStart(7)} ms  auto ${a.toFixed(1).padStart(7)} ms  ratio ${(a / p).toFixed(2)}×  (reported)`);
  }
  h.close();
  return true;
}
