import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OPERATION_TYPES } from "@mcb/recipe";
import { BUILDING_GUIDANCE } from "../src/index.js";
import { root } from "./support.js";

/**
 * Every recipe operation of the schema is named where people and agents learn recipes: the
 * agent's guidance (its recipe paragraph), docs/RECIPES.md's table, docs/PROTOCOL.md's list and
 * docs/DESIGN.md's "Plans". An operation added to the schema and left out of one of them fails here.
 */
function unnamed(text: string, types: readonly string[], named: (type: string) => RegExp): string[] {
  return types.filter((t) => !named(t).test(text));
}

/** In a document: the name in code, `name` or `name(…`. */
const inCode = (t: string): RegExp => new RegExp("`" + t + "[`(]");
/** In the guidance's recipe paragraph (from "Recipes {" to the next blank line): the word. */
const guidanceRecipes = (): string => /^Recipes \{[\s\S]*?(?=\n\n)/m.exec(BUILDING_GUIDANCE)?.[0] ?? "";

describe("every recipe operation is named in the guidance and the docs", () => {
  it.each([
    ["the agent's guidance", guidanceRecipes, (t: string) => new RegExp(`\\b${t}\\b`)],
    ["docs/RECIPES.md", () => readFileSync(join(root, "docs/RECIPES.md"), "utf8"), (t: string) => new RegExp("^\\| `" + t + "\\(", "m")],
    ["docs/PROTOCOL.md", () => readFileSync(join(root, "docs/PROTOCOL.md"), "utf8"), inCode],
    ["docs/DESIGN.md", () => readFileSync(join(root, "docs/DESIGN.md"), "utf8"), inCode],
  ] as const)("%s", (_where, text, named) => {
    expect(text().length).toBeGreaterThan(0);
    expect(unnamed(text(), OPERATION_TYPES, named)).toEqual([]);
  });

  it("and an operation missing from one is caught (a planted sphere)", () => {
    const types = [...OPERATION_TYPES, "sphere"];
    expect(unnamed(guidanceRecipes(), types, (t) => new RegExp(`\\b${t}\\b`))).toEqual(["sphere"]);
    expect(unnamed(readFileSync(join(root, "docs/PROTOCOL.md"), "utf8"), types, inCode)).toEqual(["sphere"]);
  });
});
