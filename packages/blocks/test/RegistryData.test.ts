import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SCRIPTS = fileURLToPath(new URL("../scripts/", import.meta.url));
const DATA = fileURLToPath(new URL("../data/", import.meta.url));

interface Generator {
  generateAll(): Map<string, string>;
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
    const { generateAll } = (await import(join(SCRIPTS, "generate-registry.mjs"))) as Generator;
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
});
