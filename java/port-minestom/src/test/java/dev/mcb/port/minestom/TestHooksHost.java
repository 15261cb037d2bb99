package dev.mcb.port.minestom;

import dev.mcb.port.CompareAndSet;

/**
 * The Minestom host with the tests' hooks ({@link TestEdit}): what the live suites run when they
 * need edits from outside the engine. Only in the tests' sources (mcb-port-minestom-tests.jar).
 * Run: {@code java -cp mcb-port-minestom.jar:mcb-port-minestom-tests.jar dev.mcb.port.minestom.TestHooksHost [host options]}.
 */
public final class TestHooksHost {
  private TestHooksHost() {}

  public static void main(String[] args) {
    Main.run(args, new CompareAndSet(), " test-hooks", TestEdit::install);
  }
}
