import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { filesUnder } from "./RepoFiles.js";

/** A TypeScript source (declarations aside). */
const SOURCE = /^(?!.*\.d\.ts$).*\.m?ts$/;

/**
 * The import rules of the workspace's packages, checked over their `src/` (what ships):
 * - no module circle inside a package (relative imports, type-only and dynamic ones included);
 * - no circle between packages, and every package a source imports is a dependency in its
 *   package.json (so a build of one package never needs another it does not declare);
 * - no adapter imports another adapter (what they share is `@mcb/adapter-kit`);
 * - a package that declares its folders' layers (`"mcb": { "layers": [...] }` in package.json,
 *   bottom first) imports only sideways or down: a file in one folder of `src/` imports files of
 *   its own folder or of a folder listed before it, and files directly in `src/` (the top) import
 *   any; a folder missing from the list is reported;
 * - shipped code never imports a test-only module: the repository's devDependencies, the
 *   property-test package, or a file under a `test/` folder (the property-test package itself is
 *   test code: it may use the devDependencies).
 * Returns one line per violation (empty: the rules hold).
 */
export function importViolations(root: string): string[] {
  const packages = readPackages(root);
  const names = new Set(packages.map((p) => p.name));
  const testOnly = new Set([...Object.keys(readJson(join(root, "package.json")).devDependencies ?? {}), "@mcb/property-tests"]);
  const out: string[] = [];
  const packageEdges = new Map<string, Set<string>>();
  for (const pkg of packages) {
    const edges = new Map<string, string[]>();
    const used = new Set<string>();
    for (const file of filesUnder(join(pkg.dir, "src"), SOURCE)) {
      const deps: string[] = [];
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        const where = relative(root, file);
        if (spec.startsWith(".")) {
          const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
          if (!target.startsWith(join(pkg.dir, "src"))) out.push(`${where} imports ${spec}, outside its package's src/`);
          if (target.split("/").includes("test")) out.push(`${where} imports a test file (${spec})`);
          const down = layerBreach(pkg, file, target);
          if (down !== null) out.push(`${where} imports ${spec}: ${down}`);
          deps.push(target);
          continue;
        }
        if (spec.startsWith("node:")) continue;
        const dep = packageOf(spec);
        const tests = testOnly.has(pkg.name);
        if (tests && testOnly.has(dep)) continue;
        if (testOnly.has(dep)) out.push(`${where} imports ${dep}, which only tests may use`);
        else if (dep !== pkg.name && !(dep in pkg.dependencies))
          out.push(`${where} imports ${dep}, not a dependency in ${relative(root, join(pkg.dir, "package.json"))}`);
        if (dep === pkg.name) out.push(`${where} imports its own package by name`);
        if (isAdapter(pkg.name) && isAdapter(dep) && dep !== pkg.name)
          out.push(`${where}: the adapter ${pkg.name} imports the adapter ${dep} (share code through @mcb/adapter-kit)`);
        if (names.has(dep)) used.add(dep);
      }
      edges.set(file, deps);
    }
    for (const folder of unlistedFolders(pkg, edges.keys())) out.push(`${relative(root, join(pkg.dir, "src", folder))}/ is not in the layers of ${pkg.name}`);
    for (const cycle of cycles(edges)) out.push(`a module circle in ${pkg.name}: ${cycle.map((f) => relative(root, f)).join(" → ")}`);
    packageEdges.set(pkg.name, used);
  }
  for (const cycle of cycles(new Map([...packageEdges].map(([k, v]) => [k, [...v]])))) out.push(`a package circle: ${cycle.join(" → ")}`);
  return out;
}

interface PackageInfo {
  readonly name: string;
  readonly dir: string;
  readonly dependencies: Record<string, string>;
  /** Its folders under src/, bottom first (none: the package declares no layers). */
  readonly layers: readonly string[] | null;
}

/** The folder of `src/` a file sits in ("" for a file directly in src/, the top). */
function folderOf(pkg: PackageInfo, file: string): string {
  const parts = relative(join(pkg.dir, "src"), file).split("/");
  return parts.length > 1 ? parts[0]! : "";
}

/** Why an import goes up the package's layers, or null (no layers, or sideways or down). */
function layerBreach(pkg: PackageInfo, file: string, target: string): string | null {
  if (pkg.layers === null) return null;
  const from = folderOf(pkg, file);
  const to = folderOf(pkg, target);
  if (from === to || from === "") return null;
  const rank = (f: string): number => (f === "" ? pkg.layers!.length : pkg.layers!.indexOf(f));
  if (rank(from) < 0 || rank(to) <= rank(from)) return null;
  return `${from}/ is below ${to === "" ? "the top of src/" : `${to}/`} in the layers of ${pkg.name} (${pkg.layers.join(" → ")})`;
}

/** The folders of src/ holding a source that the package's layers leave out. */
function unlistedFolders(pkg: PackageInfo, files: Iterable<string>): string[] {
  if (pkg.layers === null) return [];
  const folders = new Set([...files].map((f) => folderOf(pkg, f)).filter((f) => f !== "" && !pkg.layers!.includes(f)));
  return [...folders].sort();
}

function readJson(path: string): {
  name?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  workspaces?: string[];
  mcb?: { layers?: string[] };
} {
  return JSON.parse(readFileSync(path, "utf8")) as never;
}

/** The workspace packages that ship code (`src/`). */
function readPackages(root: string): PackageInfo[] {
  return (readJson(join(root, "package.json")).workspaces ?? [])
    .map((w) => join(root, w))
    .filter((dir) => existsSync(join(dir, "src")) && existsSync(join(dir, "package.json")))
    .map((dir) => {
      const j = readJson(join(dir, "package.json"));
      return { name: j.name ?? dir, dir, dependencies: { ...j.dependencies, ...j.optionalDependencies }, layers: j.mcb?.layers ?? null };
    });
}

/** Every module a source names: static imports and re-exports (type-only too) and dynamic imports. */
export function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const found: string[] = [];
  for (const m of code.matchAll(/(?:^|[;\s])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/g)) found.push(m[1]!);
  for (const m of code.matchAll(/(?:^|[;\s])import\s*["']([^"']+)["']/g)) found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]!);
  return found;
}

function packageOf(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function isAdapter(name: string): boolean {
  return /^@mcb\/adapter-/.test(name) && name !== "@mcb/adapter-kit";
}

/** The circles of a directed graph (its strongly connected components of two or more nodes, or a node naming itself), each in path order. */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    stack: string[] = [],
    on = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      on.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(inOrder(component, edges));
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** A circle through a component, from its first member back to it. */
function inOrder(component: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const path = [start];
  const seen = new Set([start]);
  let at = start;
  for (;;) {
    const step = (edges.get(at) ?? []).find((w) => members.has(w) && !seen.has(w)) ?? (edges.get(at) ?? []).find((w) => w === start);
    if (step === undefined || step === start) break;
    path.push(step);
    seen.add(step);
    at = step;
  }
  return [...path, start];
}

/**
 * The repository's scripts (`.mjs` under the given folders, e.g. bench/, corpus/, scripts/): every
 * relative module they import exists (a built package's `dist/` included: run after `tsc -b`).
 * Returns one line per missing module.
 */
export function missingScriptImports(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of folders.flatMap((f) => filesUnder(join(root, f), /\.mjs$/))) {
    for (const spec of specifiers(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      if (!existsSync(resolve(dirname(file), spec))) out.push(`${relative(root, file)} imports ${spec}, which does not exist`);
    }
  }
  return out;
}
