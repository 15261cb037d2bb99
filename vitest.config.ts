import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import LongestFirst from "./vitest.sequencer.js";

const src = (pkg: string): string => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@mcb/blocks": src("blocks"),
      "@mcb/nbt": src("nbt"),
      "@mcb/recipe": src("recipe"),
      "@mcb/schematic": src("schematic"),
      "@mcb/terrain": src("terrain"),
      "@mcb/render": src("render"),
      "@mcb/engine": src("engine"),
      "@mcb/adapter-kit": src("adapter-kit"),
      "@mcb/adapter-memory": src("adapter-memory"),
      "@mcb/adapter-anvil": src("adapter-anvil"),
      "@mcb/adapter-port": src("adapter-port"),
      "@mcb/bridge": src("bridge"),
      "@mcb/property-tests": fileURLToPath(new URL("./property-tests/src/index.ts", import.meta.url)),
    },
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "property-tests/test/**/*.test.ts"],
    testTimeout: 60_000,
    globalSetup: ["./vitest.globalSetup.ts"],
    sequence: { sequencer: LongestFirst },
    pool: "forks",
    // Vitest's default leaves one core free: on CI's two cores that ran the files one by one (12.5 min); two workers take 8.5.
    maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
  },
});
