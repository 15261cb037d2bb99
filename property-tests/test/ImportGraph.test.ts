import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
    write("packages/a/package.json", pkg("@mcb/a", { "@mcb/b": "0" }));
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
      ["an adapter importing an adapter", /^packages\/adapter-x\/src\/index\.ts: the adapter @mcb\/adapter-x imports the adapter @mcb\/adapter-y/],
    ])("%s", (_what, line) => {
      expect(found.filter((l) => line.test(l))).toHaveLength(1);
    });

    it("and nothing else (the kit, comments and node: modules are fine)", () => {
      expect(found.filter((l) => l.startsWith("packages/adapter-kit") || l.startsWith("packages/adapter-y") || l.includes("Commented"))).toEqual([]);
      // the test file is outside src/ as well: reported once for each rule it breaks
      expect(found).toHaveLength(8);
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
