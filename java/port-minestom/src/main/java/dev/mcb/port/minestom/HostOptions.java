package dev.mcb.port.minestom;

import java.nio.file.Path;

/** Command-line options of the Minestom host (see {@code --help}). */
record HostOptions(
    String gameHost,
    int gamePort,
    int httpPort,
    Path worldDir,
    int loadRadius,
    double budgetMs,
    long autosaveMs,
    Path tokenFile,
    String logLevel,
    boolean help) {

  static final String USAGE = """
      usage: java -jar mcb-port-minestom.jar [options]
        --world DIR          world folder (Anvil region files, mcb-world.json); default ./mcb-world
        --game-port N        Minecraft port (offline mode); default 25565
        --game-host HOST     Minecraft bind address; default 127.0.0.1
        --http-port N        world-port HTTP port (loopback only); default 8765
        --load-radius N      chunks kept loaded around 0,0 (the port never loads chunks); default 8
        --budget-ms MS       port work per tick; default 5
        --autosave-ms MS     save written chunks this often; default 2000
        --token-file FILE    file holding the port token, at least 16 characters (else MCB_PORT_TOKEN, else
                             DIR/port-token is created)
        --log-level LEVEL    error, warn, info or debug (one line per event on stderr); default info
        --help               this text
      """;

  static HostOptions parse(String[] args) {
    String gameHost = "127.0.0.1";
    int gamePort = 25565, httpPort = 8765, radius = 8;
    Path world = Path.of("mcb-world"), tokenFile = null;
    double budget = 5;
    long autosave = 2000;
    boolean help = false;
    String logLevel = "info";
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--world" -> world = Path.of(value(args, ++i, a));
        case "--game-port" -> gamePort = port(value(args, ++i, a), a);
        case "--game-host" -> gameHost = value(args, ++i, a);
        case "--http-port" -> httpPort = port(value(args, ++i, a), a);
        case "--load-radius" -> radius = (int) number(value(args, ++i, a), a);
        case "--budget-ms" -> budget = decimal(value(args, ++i, a), a);
        case "--autosave-ms" -> autosave = number(value(args, ++i, a), a);
        case "--token-file" -> tokenFile = Path.of(value(args, ++i, a));
        case "--log-level" -> logLevel = value(args, ++i, a);
        case "--help", "-h" -> help = true;
        default -> throw new IllegalArgumentException("unknown option " + a + " (see --help)");
      }
    }
    if (radius < 0 || radius > 32) throw new IllegalArgumentException("--load-radius must be 0..32");
    if (budget <= 0 || budget > 50) throw new IllegalArgumentException("--budget-ms must be in (0, 50]");
    if (autosave < 50) throw new IllegalArgumentException("--autosave-ms must be at least 50");
    if (dev.mcb.port.PortLog.level(logLevel) == null) throw new IllegalArgumentException("--log-level must be one of " + dev.mcb.port.PortLog.LEVELS);
    return new HostOptions(gameHost, gamePort, httpPort, world, radius, budget, autosave, tokenFile, logLevel, help);
  }

  private static int port(String v, String flag) {
    long p = number(v, flag);
    if (p < 0 || p > 65535) throw new IllegalArgumentException(flag + " must be a port 0..65535, not " + v);
    return (int) p;
  }

  private static long number(String v, String flag) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " needs a whole number, not \"" + v + "\"");
    }
  }

  private static double decimal(String v, String flag) {
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " needs a number, not \"" + v + "\"");
    }
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) throw new IllegalArgumentException(flag + " needs a value");
    return args[i];
  }
}
