// The equivalent of the largest real schematic we found (schematic-renderer's large_schematic.schem,
// AGPL-3.0-only, so not kept): Sponge v2, DataVersion 3700 (1.20.4), 256 × 256 × 256 positions,
// 617 palette entries (two-byte varints), 42,010 block entities. Deterministic; built in memory
// by the corpus test and the bench (about 16.8 M positions), never stored.
import { createRequire } from "node:module";
import { C, byteArray, chestItems, compounds, int, intArray, paletteOf, rng, short, str, varints, gz } from "./nbt-kit.mjs";

const require = createRequire(import.meta.url);
export const LARGE = { width: 256, height: 256, length: 256, dataVersion: 3700, palette: 617, blockEntities: 42_010 };

const ENTITY_BLOCKS = [
  ["minecraft:chest[facing=north,type=single,waterlogged=false]", "minecraft:chest"],
  ["minecraft:barrel[facing=up,open=false]", "minecraft:barrel"],
  ["minecraft:furnace[facing=east,lit=false]", "minecraft:furnace"],
  ["minecraft:hopper[enabled=true,facing=down]", "minecraft:hopper"],
];

/** Palette states that exist both in minecraft-data 1.20.4 (what the file's version had) and as written. */
function paletteStates(count) {
  const blocks = require("minecraft-data")("1.20.4").blocksArray.filter((b) => b.boundingBox === "block" && !/(chest|barrel|furnace|hopper|sign|banner|head|skull|bed|shulker|spawner|beehive|bee_nest|lectern|campfire|jukebox|brewing|command|structure|jigsaw|beacon|conduit|bell|comparator|daylight|dispenser|dropper|enchanting|end_gateway|end_portal|piston|moving|decorated_pot|chiseled_bookshelf|sculk|crafter|trial|vault|suspicious)/.test(b.name));
  const states = ["minecraft:air", "minecraft:stone", ...ENTITY_BLOCKS.map(([s]) => s)];
  for (const b of blocks) {
    if (states.length >= count) break;
    const id = `minecraft:${b.name}`;
    if (states.includes(id)) continue;
    if (!b.states || b.states.length === 0) states.push(id);
    else {
      // Up to four states of the block, every property written (as WorldEdit writes them).
      for (let k = 0; k < Math.min(4, b.maxStateId - b.minStateId + 1) && states.length < count; k++) {
        let rest = k;
        const props = [...b.states].reverse().map((p) => {
          const values = p.type === "bool" ? ["true", "false"] : p.type === "int" ? Array.from({ length: p.num_values }, (_, i) => String(Number(p.values?.[0] ?? 0) + i)) : p.values;
          const v = values[rest % p.num_values];
          rest = Math.floor(rest / p.num_values);
          return `${p.name}=${v}`;
        });
        states.push(`${id}[${props.sort().join(",")}]`);
      }
    }
  }
  return states;
}

export function largeEquivalent() {
  const { width: w, height: h, length: l } = LARGE;
  const palette = paletteStates(LARGE.palette);
  const n = w * h * l;
  const blocks = new Uint16Array(n);
  const r = rng(3700);
  const natural = 40;
  for (let y = 0; y < h; y++)
    for (let z = 0; z < l; z++)
      for (let x = 0, i = y * w * l + z * w; x < w; x++, i++) {
        if (y < 60) blocks[i] = r() < 0.03 ? 6 + Math.floor(r() * natural) : 1;
        else if (y < 100) blocks[i] = (((x >> 2) + (z >> 2) + y) & 3) === 0 ? 6 + natural + ((x * 31 + z * 17 + y * 7) % (palette.length - 6 - natural)) : 0;
        else blocks[i] = (x & 15) === 0 && (z & 15) === 0 ? 1 : 0;
      }
  const entities = [];
  for (let k = 0; k < LARGE.blockEntities; k++) {
    const i = (60 * w * l) + ((k * 2_654_435_761) % (40 * w * l));
    if (blocks[i] >= 2 && blocks[i] <= 5) continue;
    const kind = k % 4;
    blocks[i] = 2 + kind;
    const x = i % w, z = Math.floor(i / w) % l, y = Math.floor(i / (w * l));
    entities.push(C({ Pos: intArray([x, y, z]), Id: str(ENTITY_BLOCKS[kind][1]), Items: chestItems(k % 5, rng(k)) }));
  }
  if (entities.length !== LARGE.blockEntities) throw new Error(`large: ${entities.length} block entities (positions collided)`);
  return gz(
    "Schematic",
    C({
      Version: int(2),
      DataVersion: int(LARGE.dataVersion),
      Width: short(w),
      Height: short(h),
      Length: short(l),
      Offset: intArray([0, 0, 0]),
      Metadata: C({ WEOffsetX: int(-128), WEOffsetY: int(0), WEOffsetZ: int(-128) }),
      PaletteMax: int(palette.length),
      Palette: paletteOf(palette),
      BlockData: byteArray(varints(blocks)),
      BlockEntities: compounds(entities),
    }),
    6,
  );
}

/**
 * The bench's synthetic file: Sponge v2 at the registry's DataVersion (4786, 26.1), 256 × 160 ×
 * 256 = 10,485,760 positions, 100 palette entries (one-byte varints, so prismarine-schematic's
 * 16 M-byte array cap still lets it read the file), 1,000 chests with items.
 */
export const SYNTHETIC = { width: 256, height: 160, length: 256, dataVersion: 4786, palette: 100, blockEntities: 1000 };

export function synthetic10M() {
  const { width: w, height: h, length: l } = SYNTHETIC;
  const states = paletteStates(SYNTHETIC.palette).filter((s) => !s.includes("chain"));
  while (states.length < SYNTHETIC.palette) states.push(`minecraft:${["white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray"][states.length % 8]}_wool`);
  const palette = [...new Set(states)].slice(0, SYNTHETIC.palette);
  const blocks = new Uint8Array(w * h * l);
  const r = rng(4786);
  for (let i = 0; i < blocks.length; i++) {
    const y = Math.floor(i / (w * l));
    blocks[i] = y < 64 ? (r() < 0.1 ? 6 + Math.floor(r() * (palette.length - 6)) : 1) : r() < 0.15 ? 6 + Math.floor(r() * (palette.length - 6)) : 0;
  }
  const entities = [];
  for (let k = 0; k < SYNTHETIC.blockEntities; k++) {
    const i = 70 * w * l + k * 997;
    blocks[i] = 2;
    entities.push(C({ Pos: intArray([i % w, Math.floor(i / (w * l)), Math.floor(i / w) % l]), Id: str("minecraft:chest"), Items: chestItems(1 + (k % 4), rng(k)) }));
  }
  return gz("Schematic", C({ Version: int(2), DataVersion: int(SYNTHETIC.dataVersion), Width: short(w), Height: short(h), Length: short(l), Offset: intArray([0, 0, 0]), PaletteMax: int(palette.length), Palette: paletteOf(palette), BlockData: byteArray(varints(blocks)), BlockEntities: compounds(entities) }), 6);
}
