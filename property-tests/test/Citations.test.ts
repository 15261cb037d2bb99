import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { brokenCitations } from "../src/Citations.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Shipped code, the test helpers, benchmarks and scripts (the tests' own fixtures, like the planted ones below, aside). */
const SOURCES = ["packages", "java", "property-tests/src", "bench", "scripts", "corpus"];
const DOCUMENTS = ["README.md", "docs", "java", "corpus"];

describe("what the repository cites is in it", () => {
  it("every document and section the code cites, every path the documents name", () => {
    expect(brokenCitations(ROOT, SOURCES, DOCUMENTS)).toEqual([]);
  });

  it("catches a missing document, a missing section and a path that moved (planted); build outputs .gitignore names need no build", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-citations-"));
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    try {
      write(".gitignore", "bench/out/\njava/*/target/\n");
      write("docs/DESIGN.md", "# Design\n\n## Write rule\n\ntext\n");
      write("java/PROTOCOL.md", "## Methods\n\n| `cas` | below |\n\n**cas_batch** — several slices\n");
      write(
        "packages/a/src/A.ts",
        [
          '// docs/DESIGN.md "Write rule": kept',
          '// java/PROTOCOL.md "cas", "cas_batch": kept',
          '// ARCHITECTURE.md "Key contracts": not in the repository',
          '// docs/DESIGN.md "Undo": no such section',
        ].join("\n"),
      );
      write(
        "README.md",
        "See `packages/a/src/A.ts`, [the design](docs/DESIGN.md), `packages/a/src/Gone.ts`, output in `bench/out`, the jar in `java/port-x/target/` (a build makes it).\n",
      );
      expect(brokenCitations(dir, ["packages"], ["README.md"])).toEqual([
        "packages/a/src/A.ts cites ARCHITECTURE.md, which is not in the repository",
        'packages/a/src/A.ts cites docs/DESIGN.md "Undo", which has no such section',
        "README.md names packages/a/src/Gone.ts, which is not in the repository",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
