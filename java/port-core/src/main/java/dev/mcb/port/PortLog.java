package dev.mcb.port;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The host's log: one line per event on stderr ({@code time LEVEL logger: message}, a stack trace
 * below an exception), through JDK logging. JDK logging needs no library in port-core; a host whose
 * game engine logs through SLF4J (Minestom) binds SLF4J to it (slf4j-jdk14), so the server's own
 * lines and ours share one format and one {@code --log-level}. Messages never carry the token or a
 * request body.
 */
public final class PortLog {
  private PortLog() {}

  /** The levels {@code --log-level} accepts. */
  public static final String LEVELS = "error, warn, info, debug";

  public static Logger get(Class<?> c) {
    return Logger.getLogger("mcb." + c.getSimpleName());
  }

  /** Parses error|warn|info|debug; null when unknown. */
  public static Level level(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "error" -> Level.SEVERE;
      case "warn" -> Level.WARNING;
      case "info" -> Level.INFO;
      case "debug" -> Level.FINE;
      default -> null;
    };
  }

  /** Replaces the JDK's default console setup: one stderr handler with the one-line format. */
  public static void configure(Level level) {
    LogManager.getLogManager().reset();
    Logger root = Logger.getLogger("");
    Handler h = new ConsoleHandler(); // System.err
    h.setLevel(level);
    h.setFormatter(new OneLine());
    root.addHandler(h);
    root.setLevel(level);
  }

  /** {@code 2026-12-04T06:30:00.123Z INFO mcb.Port: message}, then the stack trace of a thrown exception. */
  static final class OneLine extends Formatter {
    @Override
    public String format(LogRecord r) {
      StringBuilder b = new StringBuilder(160);
      b.append(Instant.ofEpochMilli(r.getMillis())).append(' ').append(name(r.getLevel())).append(' ').append(r.getLoggerName()).append(": ")
          .append(formatMessage(r).replace('\n', ' ')).append('\n');
      if (r.getThrown() != null) {
        StringWriter w = new StringWriter();
        r.getThrown().printStackTrace(new PrintWriter(w));
        b.append(w);
      }
      return b.toString();
    }

    private static String name(Level l) {
      if (l.intValue() >= Level.SEVERE.intValue()) return "ERROR";
      if (l.intValue() >= Level.WARNING.intValue()) return "WARN";
      if (l.intValue() >= Level.INFO.intValue()) return "INFO";
      return "DEBUG";
    }
  }
}
