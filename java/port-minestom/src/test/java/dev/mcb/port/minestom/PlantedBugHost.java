package dev.mcb.port.minestom;

import dev.mcb.port.CompareAndSet;

/**
 * The Minestom host with the conformance suite's planted bug: compare-and-set goes on writing after
 * a failing group, where the rule stops. Only in the tests' sources (java/build.sh packages them
 * as mcb-port-minestom-tests.jar); the live conformance suite runs it and must catch the bug. It
 * has the tests' hooks ({@link TestEdit}) too.
 * Run: {@code java -cp mcb-port-minestom.jar:mcb-port-minestom-tests.jar dev.mcb.port.minestom.PlantedBugHost [host options]}.
 */
public final class PlantedBugHost {
  private PlantedBugHost() {}

  public static void main(String[] args) {
    Main.run(args, new WritePastFailingGroup(), " test-hooks planted-bug", TestEdit::install);
  }

  /** Keeps writing after a failing group. */
  static final class WritePastFailingGroup extends CompareAndSet {
    @Override
    protected boolean stopsAtFailingGroup() {
      return false;
    }
  }
}
