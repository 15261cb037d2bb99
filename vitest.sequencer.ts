import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest (about 8 s or more each on CI's two cores; measured on a fresh clone), longest
 * first. A fresh clone has no timing cache, so vitest would start them wherever their size puts
 * them, and a long one started last keeps one worker busy while the other waits: started first,
 * the short files fill in around them and both workers end together.
 */
const LONGEST_FIRST = [
  "property-tests/test/AnvilSuites.test.ts",
  "property-tests/test/ModelSuite.test.ts",
  "property-tests/test/LiveSavedWrites.test.ts",
  "property-tests/test/LiveMcpKill.test.ts",
  "property-tests/test/LiveGhosts.test.ts",
  "property-tests/test/RealRegions.test.ts",
  "packages/bridge/test/ReadmeWalkthrough.test.ts",
  "packages/bridge/test/chat/ChatSessions.test.ts",
  "packages/bridge/test/chat/ChatEndToEnd.test.ts",
  "property-tests/test/LivePortCrash.test.ts",
  "property-tests/test/LiveSave.test.ts",
  "packages/bridge/test/cli/ManualEditsCli.test.ts",
  "property-tests/test/LivePortConformance.test.ts",
  "property-tests/test/LiveSharedBridges.test.ts",
  "property-tests/test/LiveKeepMyWindows.test.ts",
  "packages/schematic/test/Corpus.test.ts",
  "packages/schematic/test/UpgradeCoverage.test.ts",
  "property-tests/test/LiveChat.test.ts",
  "packages/bridge/test/workspace/SaveCrash.test.ts",
  "packages/bridge/test/chat/ChatKeepMyWindows.test.ts",
  "property-tests/test/SharedJournal.property.test.ts",
  "property-tests/test/LiveMinecraftClient.test.ts",
  "packages/recipe/test/Compiler.reference.test.ts",
  "property-tests/test/LiveMcp.test.ts",
  "property-tests/test/RegistryPlacement.test.ts",
];

/** Vitest's order (failed first, then by recorded time or size), with the longest files moved to the front. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
