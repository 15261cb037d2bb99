import { existsSync, readFileSync, statSync } from "node:fs";
import { filesUnder } from "./RepoFiles.js";
import { dirname, join, relative, resolve } from "node:path";

/**
 * What the repository cites must be in it: every Markdown file a source names (and, for a name
 * followed by quoted sections, each section: a heading of that text, or in a protocol's reference a
 * method's table row or bold paragraph), and every repository path a document
 * names in backticks or a link (`packages/…`, `docs/…`, `java/…`, …; globs and ignored, generated
 * folders aside). Returns one line per citation that does not resolve.
 */
export function brokenCitations(root: string, sources: readonly string[], documents: readonly string[]): string[] {
  const out: string[] = [];
  const ignored = gitignored(root);
  for (const file of sources.flatMap((s) => filesUnder(join(root, s), /\.(ts|java|mjs|sh)$/))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/([A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)((?: "[^"\n]{1,80}")(?:, "[^"\n]{1,80}")*)?/g)) {
      const doc = locate(root, file, m[1]!);
      const where = relative(root, file);
      if (doc === null) {
        out.push(`${where} cites ${m[1]}, which is not in the repository`);
        continue;
      }
      for (const s of (m[2] ?? "").matchAll(/"([^"\n]+)"/g))
        if (!hasSection(doc, s[1]!)) out.push(`${where} cites ${m[1]} "${s[1]}", which has no such section`);
    }
  }
  for (const file of documents.flatMap((d) => (d.endsWith(".md") ? [join(root, d)] : filesUnder(join(root, d), /\.md$/)))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /[`(]((?:\.\.\/)*(?:packages|docs|java|property-tests|bench|corpus|scripts|examples|\.ci)\/[A-Za-z0-9_.\-/]*[A-Za-z0-9_\-/])[`)#]/g,
    )) {
      const path = m[1]!;
      const full = resolve(path.startsWith("../") ? dirname(file) : root, path);
      const inRepo = relative(root, full);
      if (inRepo.startsWith("..") || ignored.some((g) => g.test(`${inRepo}/`))) continue;
      if (!existsSync(full) && !existsSync(resolve(dirname(file), path))) out.push(`${relative(root, file)} names ${path}, which is not in the repository`);
    }
  }
  return out;
}

/** A cited document: from the repository's root, else next to the file citing it. */
function locate(root: string, from: string, cited: string): string | null {
  for (const base of [root, dirname(from)]) {
    const p = resolve(base, cited);
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return null;
}

function hasSection(doc: string, section: string): boolean {
  const want = section.toLowerCase();
  const lines = readFileSync(doc, "utf8").split("\n");
  const headings = lines.filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, "").replace(/`/g, "").trim().toLowerCase());
  if (headings.some((h) => h === want || h.startsWith(`${want} `) || h.startsWith(`${want}:`))) return true;
  // A method of a protocol reference: its row in a table (| `name` |) or its bold paragraph (**name**).
  return lines.some((l) => l.toLowerCase().startsWith(`| \`${want}\` |`) || l.toLowerCase().startsWith(`**${want}**`));
}

/**
 * The folders .gitignore names (generated outputs a document may name: a Java build folder after a
 * build, absent from a fresh checkout), each as a pattern a path's prefix matches (`*`: one name).
 */
function gitignored(root: string): RegExp[] {
  const file = join(root, ".gitignore");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim().replace(/^\//, ""))
    .filter((l) => l.endsWith("/") && !l.startsWith("#"))
    .map((l) => new RegExp("^" + l.split("*").map(escapeRegExp).join("[^/]+")));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^$|()[\]{}\\]/g, "\\$&");
}
