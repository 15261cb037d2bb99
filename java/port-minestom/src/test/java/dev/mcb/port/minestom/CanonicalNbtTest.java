package dev.mcb.port.minestom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mcb.port.Digests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import net.kyori.adventure.nbt.CompoundBinaryTag;
import net.kyori.adventure.nbt.IntBinaryTag;
import net.kyori.adventure.nbt.StringBinaryTag;
import org.junit.jupiter.api.Test;

/** The canonical block-entity bytes agree with the TypeScript side (vectors from @mcb/schematic's canonicalNbt). */
class CanonicalNbtTest {
  private static List<JsonObject> vectors() throws IOException {
    JsonObject doc = JsonParser.parseString(Files.readString(Path.of("../protocol-vectors.json"))).getAsJsonObject();
    List<JsonObject> out = new ArrayList<>();
    for (JsonElement e : doc.getAsJsonArray("canonical_nbt")) out.add(e.getAsJsonObject());
    return out;
  }

  /** The same data with its keys in reverse order at every level. */
  private static CompoundBinaryTag reversed(CompoundBinaryTag c) {
    List<String> keys = new ArrayList<>(c.keySet());
    Collections.reverse(keys);
    CompoundBinaryTag.Builder b = CompoundBinaryTag.builder();
    for (String k : keys) b.put(k, c.get(k) instanceof CompoundBinaryTag inner ? reversed(inner) : c.get(k));
    return b.build();
  }

  @Test
  void decodesAndReencodesTheSharedVectorsByteForByte() throws IOException {
    List<JsonObject> vs = vectors();
    assertEquals(3, vs.size());
    for (JsonObject v : vs) {
      byte[] bytes = Base64.getDecoder().decode(v.get("canonical").getAsString());
      CompoundBinaryTag tag = CanonicalNbt.decode(bytes);
      assertArrayEquals(bytes, CanonicalNbt.encode(tag), v.get("name").getAsString());
      assertArrayEquals(bytes, CanonicalNbt.encode(reversed(tag)), "key order never changes the bytes: " + v.get("name").getAsString());
      assertEquals(v.get("sha256").getAsString(), Digests.sha256(CanonicalNbt.encode(tag)));
    }
  }

  @Test
  void dropsThePositionAndTypeKeysAChunkStores() throws IOException {
    byte[] chest = Base64.getDecoder().decode(vectors().get(1).get("canonical").getAsString());
    CompoundBinaryTag stored = CanonicalNbt.decode(chest).put("x", IntBinaryTag.intBinaryTag(5)).put("y", IntBinaryTag.intBinaryTag(64))
        .put("z", IntBinaryTag.intBinaryTag(-3)).put("id", StringBinaryTag.stringBinaryTag("minecraft:chest"));
    assertArrayEquals(chest, CanonicalNbt.encode(stored));
  }

  @Test
  void refusesBytesThatAreNotAnNbtCompound() {
    assertThrows(IOException.class, () -> CanonicalNbt.decode(new byte[] {8, 0, 0, 0, 1, 'x'}));
    assertThrows(IOException.class, () -> CanonicalNbt.decode(new byte[] {10, 0, 0, 3}));
  }
}
