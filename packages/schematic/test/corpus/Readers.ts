import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import nbt from "prismarine-nbt";
import { Schematic as Nucleation } from "nucleation";
import type { ReadResult } from "../../src/index.js";

const require = createRequire(import.meta.url);
export const CORPUS = fileURLToPath(new URL("../../../../corpus/schematics/", import.meta.url));

export interface Expected {
  readonly read?: {
    readonly format: string;
    readonly width: number;
    readonly height: number;
    readonly length: number;
    readonly offset?: { x: number; y: number; z: number };
    readonly palette: number;
    readonly block_entities: number;
    readonly source_data_version: number;
    readonly upgrades?: Record<string, number>;
    readonly loss?: string[];
  };
  readonly error?: { readonly code: string; readonly reason?: string };
}

export interface Entry {
  readonly file: string | null;
  readonly generator?: string;
  readonly sha256?: string;
  readonly source?: string;
  readonly licence: string;
  readonly writer: string;
  readonly features: string[];
  readonly expect: Expected;
}

export function manifest(): { entries: Entry[]; not_kept: unknown[] } {
  return JSON.parse(readFileSync(join(CORPUS, "manifest.json"), "utf8"));
}

export async function bytesOf(e: Entry): Promise<Buffer> {
  if (e.file !== null) return readFileSync(join(CORPUS, e.file));
  const m = (await import(join(CORPUS, "large.mjs"))) as { largeEquivalent(): Buffer };
  return m.largeEquivalent();
}

export const sha256 = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

/** What another reader saw: dimensions, the state at each local position, block entities by local position. */
export interface View {
  readonly size: [number, number, number];
  stateAt(x: number, y: number, z: number): string;
  readonly blockEntities?: ReadonlyMap<string, { id: string; data: unknown }>;
}

/** Keys a reader may or may not keep beside the data: position and type. */
const POSITION_KEYS = new Set(["x", "y", "z", "id", "Id", "Pos", "keepPacked", "ContentVersion"]);

/** nucleation's typed NBT JSON ({"Int": 3}, {"List": [...]}, …) as plain comparable values. */
function fromNucleation(v: Record<string, unknown>): unknown {
  const [[type, value]] = Object.entries(v) as [[string, unknown]];
  if (type === "Compound") return Object.fromEntries(Object.entries(value as Record<string, Record<string, unknown>>).map(([k, x]) => [k, fromNucleation(x)]));
  if (type === "List") return (value as Record<string, unknown>[]).map(fromNucleation);
  if (type === "Long") return `${String(value)}L`;
  if (type === "IntArray" || type === "ByteArray" || type === "LongArray") return { [type]: (value as number[]).map(Number) };
  return value;
}

/** prismarine-nbt's parse of our canonical bytes, in the same plain form. */
export function fromPrismarine(tag: { type: string; value: unknown }): unknown {
  switch (tag.type) {
    case "compound":
      return Object.fromEntries(Object.entries(tag.value as Record<string, { type: string; value: unknown }>).map(([k, x]) => [k, fromPrismarine(x)]));
    case "list": {
      const l = tag.value as { type: string; value: unknown[] };
      return l.value.map((x) => fromPrismarine({ type: l.type, value: x }));
    }
    case "long":
      return `${(BigInt((tag.value as [number, number])[0]) << 32n) | BigInt((tag.value as [number, number])[1] >>> 0)}L`;
    case "intArray":
      return { IntArray: (tag.value as number[]).map(Number) };
    case "byteArray":
      return { ByteArray: (tag.value as number[]).map(Number) };
    case "longArray":
      return { LongArray: (tag.value as [number, number][]).map(([h, l]) => Number((BigInt(h) << 32n) | BigInt(l >>> 0))) };
    default:
      return tag.value;
  }
}

export function withoutPosition(data: unknown): unknown {
  return Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([k]) => !POSITION_KEYS.has(k)));
}

/** Our block entities by local "x,y,z", data decoded by prismarine-nbt (an independent NBT reader). */
export function ourBlockEntities(r: ReadResult): Map<string, { id: string; data: unknown }> {
  return new Map(r.schematic.blockEntities.map((be) => [`${be.x},${be.y},${be.z}`, { id: be.id, data: fromPrismarine(nbt.parseUncompressed(Buffer.from(be.data)) as unknown as { type: string; value: unknown }) }]));
}

/** nucleation 0.10.24 (Rust, wasm): one region, read by content; null when it does not read the file. */
export function nucleationView(bytes: Uint8Array): View | { error: string } {
  let s: Nucleation;
  try {
    s = Nucleation.fromData(Array.from(bytes));
  } catch (e) {
    return { error: String((e as Error)?.message ?? e) };
  }
  const regions = JSON.parse(s.renderRegionsJson()) as { name: string; min: [number, number, number]; size: [number, number, number]; palette: { name: string; properties: [string, string][] }[] }[];
  if (regions.length !== 1) return { error: `${regions.length} regions` };
  const [region] = regions as [(typeof regions)[0]];
  const [w, h, l] = region.size;
  const n = w * h * l;
  const indices = new Uint32Array(n);
  for (let at = 0; at < n; at += 65536) indices.set(s.regionBlockIndices(region.name, at, Math.min(65536, n - at)), at);
  const names = region.palette.map((p) => (p.properties.length ? `${p.name}[${p.properties.map(([k, v]) => `${k}=${v}`).join(",")}]` : p.name));
  const [mx, my, mz] = region.min;
  const blockEntities = new Map<string, { id: string; data: unknown }>();
  for (const be of JSON.parse(s.getAllBlockEntitiesJson()) as { id: string; position: [number, number, number]; nbt: Record<string, Record<string, unknown>> }[]) {
    const data = Object.fromEntries(Object.entries(be.nbt).map(([k, v]) => [k, fromNucleation(v)]));
    blockEntities.set(`${be.position[0] - mx},${be.position[1] - my},${be.position[2] - mz}`, { id: be.id, data: withoutPosition(data) });
  }
  return { size: [w, h, l], stateAt: (x, y, z) => names[indices[x + z * w + y * w * l]!]!, blockEntities };
}

interface PBlock {
  name: string;
  getProperties(): Record<string, unknown>;
}

/** prismarine-schematic 1.3.0 (JS): Sponge v1/v2 only, blocks only (it keeps no block entities). */
export async function prismarineView(bytes: Uint8Array, version?: string): Promise<View & { unknown: number }> {
  const { Schematic } = require("prismarine-schematic") as { Schematic: { read(b: Buffer, v?: string | null): Promise<{ size: { x: number; y: number; z: number }; start(): { x: number; y: number; z: number }; getBlock(p: unknown): PBlock }> } };
  const { Vec3 } = require("vec3") as { Vec3: new (x: number, y: number, z: number) => unknown };
  const log = console.log;
  let unknown = 0;
  console.log = (...a: unknown[]) => {
    if (String(a[0]).startsWith("Unknown block")) unknown++;
    else log(...a);
  };
  try {
    const p = await Schematic.read(Buffer.from(bytes), version ?? null);
    const o = p.start();
    return {
      size: [p.size.x, p.size.y, p.size.z],
      unknown,
      stateAt: (x, y, z) => {
        const b = p.getBlock(new Vec3(o.x + x, o.y + y, o.z + z));
        const props = Object.entries(b.getProperties()).map(([k, v]) => `${k}=${String(v)}`);
        return `minecraft:${b.name}${props.length ? `[${props.join(",")}]` : ""}`;
      },
    };
  } finally {
    console.log = log;
  }
}
