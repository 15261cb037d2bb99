import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importViolations, missingScriptImports, specifiers } from "../src/ImportGraph.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("the import rules of the packages", () => {
  it("hold in this repository: no module or package circle, declared dependencies, adapters apart, no test-only import in shipped code", () => {
    expect(importViolations(ROOT)).toEqual([]);
  });

  it("the engine's folders stack in the order its package.json declares, and one import up that order is caught", () => {
    const engine = JSON.parse(readFileSync(join(ROOT, "packages/engine/package.json"), "utf8")) as { mcb: { layers: string[] } };
    expect(engine.mcb.layers).toEqual(["core", "world", "store", "merge", "parts", "project", "plan", "recovery", "apply"]);
    const dir = mkdtempSync(join(tmpdir(), "mcb-layers-"));
    try {
      writeFileSync(join(dir, "package.json"), JSON.stringify({ workspaces: ["packages/engine"] }));
      cpSync(join(ROOT, "packages/engine/package.json"), join(dir, "packages/engine/package.json"), { recursive: true });
      cpSync(join(ROOT, "packages/engine/src"), join(dir, "packages/engine/src"), { recursive: true });
      expect(importViolations(dir)).toEqual([]);
      // the surface reader borrowing the merge's box cover: world/ would sit on merge/ (no circle, only the order breaks)
      const surface = join(dir, "packages/engine/src/world/Surface.ts");
      writeFileSync(surface, 'import { BoxCover } from "../merge/BoxCover.js";\n' + readFileSync(surface, "utf8"));
      expect(importViolations(dir)).toEqual([
        "packages/engine/src/world/Surface.ts imports ../merge/BoxCover.js: world/ is below merge/ in the layers of @mcb/engine (core → world → store → merge → parts → project → plan → recovery → apply)",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("tests sit in the folder of what they test: every folder of a package's test/ that holds tests is a folder of its src/", () => {
    const misplaced: string[] = [];
    for (const pkg of readdirSync(join(ROOT, "packages"))) {
      const test = join(ROOT, "packages", pkg, "test");
      if (!existsSync(test)) continue;
      for (const d of readdirSync(test, { withFileTypes: true }).filter((e) => e.isDirectory())) {
        const tests = readdirSync(join(test, d.name), { recursive: true }).some((f) => String(f).endsWith(".test.ts"));
        if (tests && !existsSync(join(ROOT, "packages", pkg, "src", d.name))) misplaced.push(`packages/${pkg}/test/${d.name}/`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it("every module the benchmarks, corpus generators and scripts import exists (the packages built)", () => {
    expect(missingScriptImports(ROOT, ["bench", "corpus", "scripts"])).toEqual([]);
  });

  it("and a script importing a module that moved is caught", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-scripts-"));
    try {
      mkdirSync(join(dir, "bench"));
      writeFileSync(join(dir, "bench", "here.mjs"), "export const x = 1;\n");
      writeFileSync(join(dir, "bench", "a.mjs"), 'import { x } from "./here.mjs";\nimport { TAG } from "../packages/schematic/dist/nbt/NbtValue.js";\n');
      expect(missingScriptImports(dir, ["bench"])).toEqual(["bench/a.mjs imports ../packages/schematic/dist/nbt/NbtValue.js, which does not exist"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe("catch each planted breach", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-imports-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    const pkg = (name: string, deps: Record<string, string> = {}): string => JSON.stringify({ name, dependencies: deps });
    write(
      "package.json",
      JSON.stringify({
        workspaces: ["packages/a", "packages/b", "packages/adapter-x", "packages/adapter-y", "packages/adapter-kit"],
        devDependencies: { "fast-check": "4" },
      }),
    );
    write("packages/a/package.json", JSON.stringify({ name: "@mcb/a", dependencies: { "@mcb/b": "0" }, mcb: { layers: ["ground", "top"] } }));
    // the layers of @mcb/a: ground imports top (up: caught), top imports ground (down: fine), a folder left out
    write("packages/a/src/ground/G.ts", 'import { t } from "../top/T.js";\nexport const g = 1;\n');
    write("packages/a/src/top/T.ts", 'import { g } from "../ground/G.js";\nexport const t = 2;\n');
    write("packages/a/src/stray/S.ts", "export const s = 3;\n");
    write("packages/b/package.json", pkg("@mcb/b", { "@mcb/a": "0" }));
    write("packages/adapter-x/package.json", pkg("@mcb/adapter-x", { "@mcb/adapter-y": "0", "@mcb/adapter-kit": "0" }));
    write("packages/adapter-y/package.json", pkg("@mcb/adapter-y", { "@mcb/adapter-kit": "0" }));
    write("packages/adapter-kit/package.json", pkg("@mcb/adapter-kit"));
    // a module circle through a type-only import; a package circle a ↔ b
    write("packages/a/src/One.ts", 'import type { Two } from "./Two.js";\nimport { b } from "@mcb/b";\nexport type One = Two;\n');
    write("packages/a/src/Two.ts", 'import { one } from "./One.js";\nexport type Two = number;\n');
    // an undeclared dependency, a test-only one, a test file, a dynamic import circle
    write(
      "packages/b/src/index.ts",
      'import fc from "fast-check";\nimport { z } from "zod";\nimport { helper } from "../test/helper.js";\nimport { one } from "@mcb/a";\nexport const b = await import("./index.js");\n// import { nothing } from "./Commented.js";\n',
    );
    // an adapter importing another, and one that shares through the kit only
    write("packages/adapter-x/src/index.ts", 'export { faults } from "@mcb/adapter-y";\nimport { kit } from "@mcb/adapter-kit";\n');
    write("packages/adapter-y/src/index.ts", 'import { kit } from "@mcb/adapter-kit";\n');
    write("packages/adapter-kit/src/index.ts", "export const kit = 1;\n");
    const found = importViolations(dir);

    it.each([
      ["a module circle", /^a module circle in @mcb\/a: packages\/a\/src\/One\.ts → packages\/a\/src\/Two\.ts → packages\/a\/src\/One\.ts$/],
      ["a module importing itself (dynamically)", /^a module circle in @mcb\/b: packages\/b\/src\/index\.ts → packages\/b\/src\/index\.ts$/],
      ["a package circle", /^a package circle: @mcb\/a → @mcb\/b → @mcb\/a$/],
      ["a test-only package", /^packages\/b\/src\/index\.ts imports fast-check, which only tests may use$/],
      ["an undeclared dependency", /^packages\/b\/src\/index\.ts imports zod, not a dependency in packages\/b\/package\.json$/],
      ["a test file", /^packages\/b\/src\/index\.ts imports a test file \(\.\.\/test\/helper\.js\)$/],
      [
        "an import up the layers",
        /^packages\/a\/src\/ground\/G\.ts imports \.\.\/top\/T\.js: ground\/ is below top\/ in the layers of @mcb\/a \(ground → top\)$/,
      ],
      ["a folder outside the layers", /^packages\/a\/src\/stray\/ is not in the layers of @mcb\/a$/],
      ["an adapter importing an adapter", /^packages\/adapter-x\/src\/index\.ts: the adapter @mcb\/adapter-x imports the adapter @mcb\/adapter-y/],
    ])("%s", (_what, line) => {
      expect(found.filter((l) => line.test(l))).toHaveLength(1);
    });

    it("and nothing else (the kit, comments and node: modules are fine)", () => {
      expect(found.filter((l) => l.startsWith("packages/adapter-kit") || l.startsWith("packages/adapter-y") || l.includes("Commented"))).toEqual([]);
      expect(found.filter((l) => l.startsWith("packages/a/src/top"))).toEqual([]);
      // the test file is outside src/ as well: reported once for each rule it breaks; G ↔ T is a circle too
      expect(found).toHaveLength(11);
    });
  });

  it("reads every form of import a source can name", () => {
    const text = [
      'import a from "m1";',
      'import type { B } from "m2";',
      'import { type C, d } from "m3";',
      'export { e } from "m4";',
      'export * from "m5";',
      'import "m6";',
      'const f = await import("m7");',
      'import {\n  g,\n  h,\n} from "m8";',
      '/* import { x } from "no1"; */',
      '// import { y } from "no2";',
      'const s = "http://example.com"; import { i } from "m9";',
    ].join("\n");
    expect(specifiers(text).sort()).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"]);
  });
});
