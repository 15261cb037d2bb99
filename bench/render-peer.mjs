// The renderer as it was before issue 13 (commit d521be4), built from git into bench/out, as the
// peer the current renderer is measured against in the same run. null when git or the commit is
// not available (a shallow clone): the bench then reports without the peer.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export const PEER_COMMIT = "d521be4";

export async function loadPeerRenderer() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const dir = fileURLToPath(new URL(`./out/render-${PEER_COMMIT}/`, import.meta.url));
  const entry = `${dir}dist/index.js`;
  if (!existsSync(entry)) {
    try {
      mkdirSync(dir, { recursive: true });
      const tar = execFileSync("git", ["archive", PEER_COMMIT, "packages/render/src"], { cwd: root, maxBuffer: 1 << 26 });
      execFileSync("tar", ["-x", "-C", dir, "--strip-components=2"], { input: tar });
      writeFileSync(
        `${dir}tsconfig.json`,
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            skipLibCheck: true,
            rootDir: "src",
            outDir: "dist",
            types: ["node"],
            strict: true,
          },
          include: ["src"],
        }),
      );
      writeFileSync(`${dir}package.json`, JSON.stringify({ type: "module" }));
      execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", dir], { cwd: root, stdio: "pipe" });
    } catch (error) {
      console.log(`(peer renderer ${PEER_COMMIT} unavailable: ${String(error.message ?? error).split("\n")[0]})`);
      return null;
    }
  }
  return import(pathToFileURL(entry).href);
}
