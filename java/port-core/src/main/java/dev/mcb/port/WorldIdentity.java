package dev.mcb.port;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * The world's id and epoch, kept in {@code mcb-world.json} beside the region files. A new folder
 * gets a new id; restoring or replacing the world is done by bumping the epoch in that file, so old
 * plans can never be applied to another copy.
 */
public record WorldIdentity(String worldId, long epoch) {
  public static WorldIdentity loadOrCreate(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve("mcb-world.json");
    if (Files.exists(file)) {
      JsonObject o = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
      return new WorldIdentity(o.get("world_id").getAsString(), o.get("epoch").getAsLong());
    }
    WorldIdentity id = new WorldIdentity(UUID.randomUUID().toString(), 1);
    JsonObject o = new JsonObject();
    o.addProperty("world_id", id.worldId());
    o.addProperty("epoch", id.epoch());
    Path tmp = dir.resolve("mcb-world.json.tmp");
    Files.writeString(tmp, o.toString());
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    return id;
  }
}
