package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class PackedIndicesTest {
  @Test
  void matchesTheSharedProtocolVectors() throws Exception {
    JsonObject doc = JsonParser.parseString(Files.readString(Path.of("../protocol-vectors.json"))).getAsJsonObject();
    int n = 0;
    for (JsonElement e : doc.getAsJsonArray("packed_indices")) {
      JsonObject c = e.getAsJsonObject();
      int bits = PackedIndices.bitsFor(c.get("palette_size").getAsInt());
      assertEquals(c.get("bits").getAsInt(), bits);
      int[] idx = c.getAsJsonArray("indices").asList().stream().mapToInt(JsonElement::getAsInt).toArray();
      byte[] packed = Base64.getDecoder().decode(c.get("packed").getAsString());
      assertArrayEquals(packed, PackedIndices.pack(idx, bits));
      assertArrayEquals(idx, PackedIndices.unpack(packed, bits, idx.length));
      n++;
    }
    assertEquals(9, n);
  }
}
