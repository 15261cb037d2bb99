import { z } from "zod";

type Json = Record<string, unknown>;

/**
 * JSON Schema of a zod schema as tools/list publishes it (draft 7), compact and self-contained:
 *
 * - **No `$ref`.** Several common MCP clients cannot resolve references (they drop `definitions`,
 *   turn a referenced field into a string, or fail to list the tools), so every schema is inlined.
 *   A recursive reference (a `repeat` inside a `repeat`) is published as a plain object described
 *   "as above"; the server still checks it against the full schema.
 * - **Shared terms are defined once**, in the server instructions and docs/PROTOCOL.md: a position
 *   (an object of exactly x, y, z integers), a column (x, z), a block (a state string or
 *   {palette}) and a camera pose are published as `{"type": "object", "description": "position: …"}`
 *   (a block: string or object). These forms accept every value the server accepts; the server checks the
 *   exact form and names the field in its refusal.
 * - **No noise**: no `$schema`, no ±2⁵³ bounds of plain integers; integer-valued enums (rotations)
 *   are `{"type": "integer", "enum": [...]}`.
 *
 * Everything else is exact: strict objects say `additionalProperties: false`, every field keeps its
 * description, limits and enums stay.
 */
export function publishedSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const terms = io === "input";
  const raw = z.toJSONSchema(schema, {
    target: "draft-7",
    io,
    override: ({ jsonSchema }) => {
      const e = jsonSchema.enum;
      if (jsonSchema.type === "number" && Array.isArray(e) && e.every((v) => Number.isSafeInteger(v))) jsonSchema.type = "integer";
    },
  }) as Json;
  const defs = (raw.definitions as Json | undefined) ?? {};
  const { $schema: _s, definitions: _d, ...root } = raw;
  const out = compact(root, defs, [], terms) as Json;
  // Nested objects are checked strictly by the server; the top level of an input says so for all.
  return { ...out, additionalProperties: false };
}

/**
 * Shared terms the server instructions define once, published in a short form that accepts every
 * value the server accepts (the server checks the exact form).
 */
const TERMS: Record<string, Json> = {
  block: { anyOf: [{ type: "string" }, { type: "object" }] },
  pose: { type: "object" },
};

/** The published form of a term, with the field's own description after the term's name. */
function term(name: string, form: Json, own: unknown): Json {
  return { ...form, description: typeof own === "string" && own !== name ? `${name}: ${own}` : name };
}

/** Coordinates beyond this are outside any world; the server names such limits when it refuses. */
const WORLD_EDGE = 30_000_000;

/** String length limits of inputs, left to the server (ids and states are short anyway). */
const INPUT_NOISE = new Set(["minLength", "maxLength", "propertyNames"]);

function compact(node: unknown, defs: Json, inlining: readonly string[], terms: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => compact(n, defs, inlining, terms));
  if (typeof node !== "object" || node === null) return node;
  let n = node as Json;
  // A described reference is {description, allOf: [{$ref}]}: the same reference with a description.
  const all = n.allOf as Json[] | undefined;
  if (all?.length === 1 && typeof all[0]!.$ref === "string") {
    const { allOf: _a, ...rest } = n;
    n = { ...rest, $ref: all[0]!.$ref };
  }
  if (typeof n.$ref === "string") {
    const name = n.$ref.replace(/^#\/(definitions|\$defs)\//, "");
    if (terms && TERMS[name] !== undefined) return term(name, TERMS[name], n.description);
    const target = defs[name] as Json | undefined;
    if (target === undefined) throw new Error(`invariant: unresolved schema reference ${n.$ref}`);
    if (inlining.includes(name)) return { type: "object", description: `${String(target.description ?? "an item")} (any form above)` };
    const { $ref: _r, ...siblings } = n;
    return compact({ ...target, ...siblings }, defs, [...inlining, name], terms);
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(n)) {
    if ((k === "minimum" && v === Number.MIN_SAFE_INTEGER) || (k === "maximum" && v === Number.MAX_SAFE_INTEGER)) continue;
    if (k === "description" && n.const !== undefined) continue; // a constant says what it is
    if (terms && INPUT_NOISE.has(k)) continue;
    if (k === "additionalProperties" && v === false) continue;
    if (k === "propertyNames" && JSON.stringify(v) === '{"type":"string"}') continue; // every JSON key is a string
    if (terms && k === "minItems" && v === 1) continue;
    if (terms && (k === "minimum" || k === "maximum") && Math.abs(v as number) >= WORLD_EDGE) continue; // a coordinate's limit is the world's
    out[k] =
      k === "properties"
        ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, compact(s, defs, inlining, terms)]))
        : compact(v, defs, inlining, terms);
  }
  if (!terms) return out;
  if (isPosition(out)) return term("y" in (out.properties as Json) ? "position" : "column", { type: "object" }, out.description);
  return mergeTagged(out);
}

/**
 * A union of objects told apart by a constant `type` (the recipe's operations, terrain features) as
 * one object: `type` lists the forms with their fields (`box(min, max, block, hollow?)`), every
 * field appears once (described per form where the forms differ). Every value of the union is
 * accepted; the server checks each form exactly.
 */
function mergeTagged(node: Json): Json {
  const branches = (node.oneOf ?? node.anyOf) as Json[] | undefined;
  if (branches === undefined || branches.length < 3) return node;
  const forms = branches.map((b) => ({ b, tag: ((b.properties as Json | undefined)?.type as Json | undefined)?.const }));
  if (!forms.every((f) => f.b.type === "object" && typeof f.tag === "string")) return node;
  const fields = new Map<string, Array<{ tag: string; schema: Json }>>();
  const signatures: string[] = [];
  for (const { b, tag } of forms) {
    const required = new Set((b.required as string[] | undefined) ?? []);
    const names = Object.keys(b.properties as Json).filter((k) => k !== "type");
    signatures.push(
      `${tag as string}(${names.map((k) => (required.has(k) ? k : `${k}?`)).join(", ")})${typeof b.description === "string" && b.description !== tag ? `: ${b.description}` : ""}`,
    );
    for (const k of names) {
      let list = fields.get(k);
      if (list === undefined) fields.set(k, (list = []));
      list.push({ tag: tag as string, schema: (b.properties as Json)[k] as Json });
    }
  }
  const properties: Json = { type: { type: "string", enum: forms.map((f) => f.tag), description: signatures.join("; ") } };
  for (const [k, list] of fields) {
    const shapes = new Map<string, Json>();
    for (const { schema } of list) {
      const { description: _d, ...shape } = schema;
      shapes.set(JSON.stringify(shape), shape);
    }
    const texts = [...new Set(list.map((l) => l.schema.description).filter((d): d is string => typeof d === "string"))];
    const description = texts.length <= 1 ? (texts[0] ?? k) : texts.join(" | ");
    properties[k] = { ...joined([...shapes.values()]), description };
  }
  const { oneOf: _o, anyOf: _a, ...rest } = node;
  return { ...rest, type: "object", properties, required: ["type"], additionalProperties: false };
}

/** One schema accepting what any of `shapes` accepts: string enums join, alternatives flatten. */
function joined(shapes: Json[]): Json {
  if (shapes.length === 1) return shapes[0]!;
  if (shapes.every((s) => s.type === "string" && Array.isArray(s.enum) && Object.keys(s).length === 2)) {
    return { type: "string", enum: [...new Set(shapes.flatMap((s) => s.enum as string[]))] };
  }
  const alternatives = new Map<string, Json>();
  for (const s of shapes) for (const a of (s.anyOf as Json[] | undefined) ?? [s]) alternatives.set(JSON.stringify(a), a);
  return alternatives.size === 1 ? [...alternatives.values()][0]! : { anyOf: [...alternatives.values()] };
}

/** An object of exactly x, y, z (or x, z) integer properties: a position or a column. */
function isPosition(node: Json): boolean {
  const props = node.properties as Json | undefined;
  if (node.type !== "object" || props === undefined) return false;
  const keys = Object.keys(props).sort().join(",");
  return (keys === "x,y,z" || keys === "x,z") && Object.values(props).every((p) => (p as Json).type === "integer");
}
