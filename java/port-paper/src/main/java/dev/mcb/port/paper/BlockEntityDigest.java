package dev.mcb.port.paper;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.bukkit.block.BlockState;
import org.bukkit.block.Container;
import org.bukkit.block.TileState;
import org.bukkit.inventory.ItemStack;

/**
 * The bytes a block entity's digest covers on Paper (stands where port-minestom has CanonicalNbt):
 * Paper's API exposes no raw block-entity NBT, so the port digests what it can read — the block
 * data, a container's items (Paper's item serialization) and the persistent data container. The
 * digest is consistent within this port (every digest the engine compares comes from it), but it is
 * not the canonical-NBT digest of the other hosts, and this host cannot write block-entity data
 * (it does not advertise {@code block_entity_data}).
 */
final class BlockEntityDigest {
  private BlockEntityDigest() {}

  static byte[] bytesOf(BlockState state) {
    if (!(state instanceof TileState tile)) return null;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(state.getBlockData().getAsString());
      if (state instanceof Container c) {
        ItemStack[] items = c.getSnapshotInventory().getContents();
        out.writeInt(items.length);
        for (ItemStack item : items) {
          byte[] b = item == null || item.isEmpty() ? new byte[0] : item.serializeAsBytes();
          out.writeInt(b.length);
          out.write(b);
        }
      }
      byte[] pdc = tile.getPersistentDataContainer().serializeToBytes();
      out.writeInt(pdc.length);
      out.write(pdc);
    } catch (IOException e) {
      throw new IllegalStateException("in-memory write failed", e);
    }
    return bytes.toByteArray();
  }
}
