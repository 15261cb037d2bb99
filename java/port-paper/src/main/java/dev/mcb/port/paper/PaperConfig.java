package dev.mcb.port.paper;

import java.nio.file.Path;
import org.bukkit.configuration.file.FileConfiguration;

/** config.yml of the plugin (mirror of port-minestom's HostOptions). */
record PaperConfig(String world, String bind, int httpPort, double budgetMs, Path tokenFile) {
  static PaperConfig from(FileConfiguration c, Path dataFolder) {
    double budget = c.getDouble("budget-ms", 5);
    if (budget <= 0 || budget > 50) throw new IllegalArgumentException("budget-ms must be in (0, 50]");
    return new PaperConfig(c.getString("world", "world"), c.getString("bind", "127.0.0.1"), c.getInt("http-port", 8765), budget,
        dataFolder.resolve(c.getString("token-file", "port-token")));
  }
}
