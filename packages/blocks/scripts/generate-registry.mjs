// Generates packages/blocks/data/ from real dependencies (run: npm run registry):
// - registry-<version>.json: one block registry per game version, from Minestom's data artifact
//   (net.minestom:data, the game's own registry dumped by Minestom's generator) in the Maven
//   repository: blocks (properties in the game's order, default state, collision shapes and the
//   heightmap flags of every state, block-entity type), items, and the release DataVersions;
// - data-versions.json: the DataVersion of every release (minecraft-data's protocolVersions.json),
//   to name a save's version;
// - legacy-1.12.json: the numeric block ids of 1.12 and older ("id:meta" → 1.13 state,
//   minecraft-data's legacy.json).
// `npm test` regenerates them and compares (packages/blocks/test/RegistryData.test.ts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readJarEntries } from "./JarEntries.mjs";

/** The registries we ship: the newest is the default. `releases` share the registry's blocks. */
export const SOURCES = [
  { version: "26.1", artifact: "26.1.2-rv1", releases: ["26.1", "26.1.1", "26.1.2"] },
  { version: "26.2", artifact: "26.2-rv3", releases: ["26.2"] },
];

export const DATA_DIR = fileURLToPath(new URL("../data/", import.meta.url));
const require = createRequire(import.meta.url);

/** The local Maven repository (MAVEN_REPO, else ~/.m2/repository), where java/build.sh resolves Minestom. */
export function mavenRepository(env = process.env) {
  return env.MAVEN_REPO ?? join(homedir(), ".m2", "repository");
}

export function dataJar(artifact, repo = mavenRepository()) {
  const path = join(repo, "net", "minestom", "data", artifact, `data-${artifact}.jar`);
  if (!existsSync(path))
    throw new Error(
      `${path} is missing: run bash java/build.sh (Maven resolves net.minestom:data:${artifact} with the host), or mvn dependency:get -Dartifact=net.minestom:data:${artifact}`,
    );
  return path;
}

const AABB = /AABB\[([-\d.E]+), ([-\d.E]+), ([-\d.E]+)\] -> \[([-\d.E]+), ([-\d.E]+), ([-\d.E]+)\]/g;

/** Minestom's shape text ("[AABB[x0, y0, z0] -> [x1, y1, z1], …]") as boxes, in its order. */
function parseShape(text) {
  const boxes = [...text.matchAll(AABB)].map((m) => m.slice(1, 7).map(Number));
  if (text !== "[]" && boxes.length === 0) throw new Error(`unreadable shape ${text}`);
  return boxes;
}

/** Heightmap flags of a state: 1 blocks motion, 2 holds a fluid (water, lava, waterlogged). */
const MOTION = 1,
  FLUID = 2;

/** Blocks whose every state holds water though they have no `waterlogged` property (the game's `getFluidState`). */
const ALWAYS_WATER = new Set(["minecraft:bubble_column", "minecraft:kelp", "minecraft:kelp_plant", "minecraft:seagrass", "minecraft:tall_seagrass"]);

/**
 * Whether a state holds a fluid (the game's `!getFluidState().isEmpty()`): a liquid block (water,
 * lava), a block that is always underwater, or a state with `waterlogged=true`. Minestom's dump
 * cannot give this itself: it writes `fluid` only where it is true and lets a state inherit the
 * block's (its default state's) fields, so a dry coral (`waterlogged=false`) of a block whose
 * default is waterlogged reads as fluid, and 26.1.2-rv1 writes no `fluid` at all.
 * `fluidRuleCheck` compares the rule with every value the dump does state.
 */
export function fluidByRule(id, block, stateKey) {
  return block.liquid === true || ALWAYS_WATER.has(id) || /[[,]waterlogged=true[\],]/.test(stateKey);
}

/**
 * A rule (default `fluidByRule`) against a dump's own `fluid` values: every state that says `fluid`
 * and every default state (whose value is the block's). `disagree` lists states (`id[props]`)
 * where they differ; `compared` counts the states compared.
 */
export function fluidRuleCheck(artifact, rule = fluidByRule, repo = mavenRepository()) {
  const blocks = JSON.parse(readJarEntries(dataJar(artifact, repo), ["net/minestom/data/block.json"]).get("net/minestom/data/block.json").toString("utf8"));
  const disagree = [];
  let compared = 0;
  for (const [id, b] of Object.entries(blocks))
    for (const [key, s] of Object.entries(b.states)) {
      const stated = s.fluid ?? (s.stateId === b.defaultStateId ? b.fluid : undefined);
      if (stated === undefined) continue;
      compared++;
      if (stated !== rule(id, b, key)) disagree.push(`${id}${key}`);
    }
  return { compared, disagree };
}

function registryOf(source, releaseDataVersions, repo) {
  const jar = dataJar(source.artifact, repo);
  const entries = readJarEntries(jar, ["net/minestom/data/block.json", "net/minestom/data/item.json", "net/minestom/data/constants.json"]);
  const blocks = JSON.parse(entries.get("net/minestom/data/block.json").toString("utf8"));
  const items = JSON.parse(entries.get("net/minestom/data/item.json").toString("utf8"));
  const constants = JSON.parse(entries.get("net/minestom/data/constants.json").toString("utf8"));
  const releases = {};
  for (const r of source.releases) {
    const dv = releaseDataVersions.get(r) ?? (r === constants.name ? constants.world : undefined);
    if (dv === undefined) throw new Error(`no DataVersion known for release ${r}`);
    releases[r] = dv;
  }
  if (releases[constants.name] !== constants.world)
    throw new Error(`${source.artifact}: ${constants.name} is DataVersion ${constants.world}, not ${releases[constants.name]}`);
  const shapes = [],
    shapeIds = new Map(),
    kinds = [],
    kindIds = new Map();
  const kindOf = (shapeText, flags) => {
    let s = shapeIds.get(shapeText);
    if (s === undefined) shapeIds.set(shapeText, (s = shapes.push(parseShape(shapeText)) - 1));
    const key = `${s},${flags}`;
    let k = kindIds.get(key);
    if (k === undefined) kindIds.set(key, (k = kinds.push([s, flags]) - 1));
    return k;
  };
  const rows = [];
  for (const id of Object.keys(blocks).sort()) {
    const b = blocks[id];
    if (!id.startsWith("minecraft:")) throw new Error(`unexpected namespace: ${id}`);
    const properties = Object.entries(b.properties ?? {});
    const states = Object.values(b.states).sort((x, y) => x.stateId - y.stateId);
    const count = properties.reduce((n, [, values]) => n * values.length, 1);
    if (states.length !== count) throw new Error(`${id}: ${states.length} states, properties give ${count}`);
    const min = states[0].stateId;
    states.forEach((s, i) => {
      if (s.stateId !== min + i) throw new Error(`${id}: state ids are not consecutive`);
    });
    const keyOf = new Map(Object.entries(b.states).map(([key, st]) => [st.stateId, key]));
    const perState = states.map((s) => {
      const motion = s.blocksMotion ?? b.blocksMotion;
      const fluid = fluidByRule(id, b, keyOf.get(s.stateId));
      return kindOf(s.collisionShape ?? b.collisionShape, (motion ? MOTION : 0) | (fluid ? FLUID : 0));
    });
    const kindsOfBlock = perState.every((k) => k === perState[0]) ? perState[0] : perState;
    const row = [id.slice("minecraft:".length), properties, b.defaultStateId - min, kindsOfBlock];
    if (b.blockEntity !== undefined) row.push(b.blockEntity.namespace);
    rows.push(row);
  }
  const itemNames = Object.keys(items)
    .map((id) => {
      if (!id.startsWith("minecraft:")) throw new Error(`unexpected namespace: ${id}`);
      return id.slice("minecraft:".length);
    })
    .sort();
  return {
    format: 1,
    minecraftVersion: source.version,
    dataVersion: releases[source.version],
    protocol: constants.protocol,
    releases,
    source: `net.minestom:data:${source.artifact} (Minestom's dump of the game's registry, ${constants.name}, protocol ${constants.protocol})`,
    shapes,
    kinds,
    items: itemNames,
    blocks: rows,
  };
}

/** Compact JSON with one block, shape or kind per line: small, and diffs name what changed. */
function formatRegistry(r) {
  const lines = (name, list, last = false) => `  ${JSON.stringify(name)}: [\n${list.map((e) => `    ${JSON.stringify(e)}`).join(",\n")}\n  ]${last ? "" : ","}`;
  const head = ["format", "minecraftVersion", "dataVersion", "protocol", "releases", "source"].map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(r[k])},`);
  return `{\n${head.join("\n")}\n  "items": ${JSON.stringify(r.items)},\n${lines("shapes", r.shapes)}\n${lines("kinds", r.kinds)}\n${lines("blocks", r.blocks, true)}\n}\n`;
}

function releaseDataVersions() {
  const all = require("minecraft-data/minecraft-data/data/pc/common/protocolVersions.json");
  const out = new Map();
  for (const v of all)
    if (/^\d+\.\d+(\.\d+)?$/.test(v.minecraftVersion) && v.dataVersion >= 100 && !out.has(v.minecraftVersion)) out.set(v.minecraftVersion, v.dataVersion);
  return out;
}

/** Every generated file, by name, as text. */
export function generateAll(repo = mavenRepository()) {
  const releases = releaseDataVersions();
  const files = new Map();
  for (const source of SOURCES) files.set(`registry-${source.version}.json`, formatRegistry(registryOf(source, releases, repo)));
  const table = [...releases].map(([name, dv]) => [dv, name]).sort((a, b) => a[0] - b[0]);
  files.set(
    "data-versions.json",
    `{\n  "source": "minecraft-data ${require("minecraft-data/package.json").version} (protocolVersions.json: releases from 1.9)",\n  "releases": [\n${table.map((e) => `    ${JSON.stringify(e)}`).join(",\n")}\n  ]\n}\n`,
  );
  const legacy = require("minecraft-data/minecraft-data/data/pc/common/legacy.json").blocks;
  const pairs = Object.entries(legacy).sort(([a], [b]) => {
    const [ai, am] = a.split(":").map(Number),
      [bi, bm] = b.split(":").map(Number);
    return ai - bi || am - bm;
  });
  files.set(
    "legacy-1.12.json",
    `{\n  "source": "minecraft-data ${require("minecraft-data/package.json").version} (pc/common/legacy.json): numeric block id:metadata of 1.12 and older → the 1.13 state",\n  "blocks": [\n${pairs.map((e) => `    ${JSON.stringify(e)}`).join(",\n")}\n  ]\n}\n`,
  );
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = generateAll();
  for (const [name, text] of files) {
    const path = join(DATA_DIR, name);
    const same = existsSync(path) && readFileSync(path, "utf8") === text;
    if (!same) writeFileSync(path, text);
    console.log(`${same ? "unchanged" : "wrote"} ${path} (${(text.length / 1024).toFixed(0)} KiB)`);
  }
}
