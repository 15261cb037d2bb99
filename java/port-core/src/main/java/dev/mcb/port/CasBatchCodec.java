package dev.mcb.port;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The binary form of {@code cas_batch} (java/PROTOCOL.md "cas_batch"): several compare-and-set
 * slices in one request body, states and digests by table index, every integer little-endian.
 *
 * <pre>
 * "MCBC" u8 version=1
 * u32 states   { u16 length, UTF-8 bytes }          ≤ 65,536 strings of ≤ 1,024 bytes
 * u32 digests  { 32 bytes of SHA-256 }              ≤ 65,536
 * u16 slices (1..64) {
 *   u32 checks { i32 x, i32 y, i32 z, u32 state, i32 digest (-1: a plain block) }   ≤ 4,096
 *   u32 writes { i32 x, i32 y, i32 z, u32 before, i32 before_digest, u32 after,
 *                i32 data length (-1: none), data bytes (canonical NBT, ≤ 1 MiB) }   ≤ 512
 *   u32 groups { u32 end }                          0: one write per group
 * }
 * </pre>
 *
 * Decoding is strict: any bad count, index, length or trailing byte is {@code invalid_request} (or
 * {@code budget_exceeded} for a limit) naming the field, before any slice runs.
 */
public final class CasBatchCodec {
  public static final int MAX_SLICES = 64;
  public static final int MAX_TABLE = 65_536;
  static final byte[] MAGIC = {'M', 'C', 'B', 'C'};
  static final int VERSION = 1;

  private CasBatchCodec() {}

  public static List<CasRequest> decode(byte[] body) {
    ByteBuffer b = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
    String path = "header";
    try {
      for (byte m : MAGIC) if (b.get() != m) throw PortError.invalid("not a cas_batch body (magic MCBC)", path);
      int version = b.get() & 0xFF;
      if (version != VERSION) throw PortError.invalid("cas_batch version " + version + " (this port reads " + VERSION + ")", path);
      path = "states";
      List<String> states = strings(b, path);
      path = "digests";
      int nd = count(b, MAX_TABLE, path);
      List<String> digests = new ArrayList<>(nd);
      HexFormat hex = HexFormat.of();
      for (int i = 0; i < nd; i++) {
        byte[] d = new byte[32];
        b.get(d);
        digests.add(hex.formatHex(d));
      }
      path = "slices";
      int ns = b.getShort() & 0xFFFF;
      if (ns < 1) throw PortError.invalid("a batch holds at least one slice", path);
      if (ns > MAX_SLICES) throw PortError.tooLarge(ns + " slices exceed " + MAX_SLICES + " per batch", "max_slices", MAX_SLICES);
      List<CasRequest> out = new ArrayList<>(ns);
      for (int s = 0; s < ns; s++) out.add(slice(b, "slices[" + s + "]", states, digests));
      if (b.hasRemaining()) throw PortError.invalid(b.remaining() + " bytes after the last slice", "slices");
      return out;
    } catch (BufferUnderflowException e) {
      throw PortError.invalid("the body ends inside " + path, path);
    }
  }

  private static CasRequest slice(ByteBuffer b, String at, List<String> states, List<String> digests) {
    int nc = count(b, Integer.MAX_VALUE, at + ".checks");
    if (nc > Port.MAX_CHECKS) throw PortError.tooLarge(nc + " checks exceed " + Port.MAX_CHECKS, "max_checks", Port.MAX_CHECKS);
    List<CasRequest.Check> checks = new ArrayList<>(Math.min(nc, 1024));
    for (int i = 0; i < nc; i++) {
      String p = at + ".checks[" + i + "]";
      int x = b.getInt(), y = b.getInt(), z = b.getInt();
      checks.add(new CasRequest.Check(x, y, z, ref(states, b.getInt(), p + ".state"), digest(digests, b.getInt(), p + ".digest")));
    }
    int nw = count(b, Integer.MAX_VALUE, at + ".writes");
    if (nw > Port.MAX_WRITES) throw PortError.tooLarge(nw + " writes exceed " + Port.MAX_WRITES + " per slice", "max_writes", Port.MAX_WRITES);
    List<CasRequest.Write> writes = new ArrayList<>(nw);
    long[] keys = new long[nw];
    for (int i = 0; i < nw; i++) {
      String p = at + ".writes[" + i + "]";
      int x = b.getInt(), y = b.getInt(), z = b.getInt();
      keys[i] = Positions.key(x, y, z);
      String before = ref(states, b.getInt(), p + ".before");
      String beforeDigest = digest(digests, b.getInt(), p + ".before_digest");
      String after = ref(states, b.getInt(), p + ".after");
      int len = b.getInt();
      byte[] data = null;
      if (len != -1) {
        if (len < 0 || len > Port.MAX_DATA) throw PortError.invalid("data length " + len + " is outside 0.." + Port.MAX_DATA, p + ".data");
        if (len > b.remaining()) throw PortError.invalid("the body ends inside the data", p + ".data");
        data = new byte[len];
        b.get(data);
      }
      writes.add(new CasRequest.Write(x, y, z, before, beforeDigest, after, data));
    }
    int repeat = Positions.firstRepeat(keys);
    if (repeat >= 0) {
      CasRequest.Write w = writes.get(repeat);
      throw PortError.invalid("a slice writes each position once; " + w.x() + "," + w.y() + "," + w.z() + " repeats", at + ".writes[" + repeat + "]");
    }
    int ng = count(b, Integer.MAX_VALUE, at + ".groups");
    int[] ends;
    if (ng == 0) {
      ends = new int[nw];
      for (int i = 0; i < nw; i++) ends[i] = i + 1;
    } else {
      if (ng > nw) throw PortError.invalid(ng + " groups for " + nw + " writes", at + ".groups");
      ends = new int[ng];
      int prev = 0;
      for (int i = 0; i < ng; i++) {
        ends[i] = b.getInt();
        if (ends[i] <= prev || ends[i] > nw) throw PortError.invalid("group ends must increase strictly within 1.." + nw, at + ".groups[" + i + "]");
        prev = ends[i];
      }
      if (prev != nw) throw PortError.invalid("the last group must end at the number of writes (" + nw + ")", at + ".groups");
    }
    return new CasRequest(List.copyOf(checks), List.copyOf(writes), ends);
  }

  /** A u32 count, at most {@code max} and never more than the bytes left could hold. */
  private static int count(ByteBuffer b, int max, String path) {
    long n = b.getInt() & 0xFFFFFFFFL;
    if (n > max) throw PortError.tooLarge(path + " has " + n + " entries (at most " + max + ")", path, max);
    if (n > b.remaining()) throw PortError.invalid(path + " claims " + n + " entries; the body ends sooner", path);
    return (int) n;
  }

  private static List<String> strings(ByteBuffer b, String path) {
    int n = count(b, MAX_TABLE, path);
    List<String> out = new ArrayList<>(n);
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    for (int i = 0; i < n; i++) {
      int len = b.getShort() & 0xFFFF;
      if (len > Port.MAX_STATE) throw PortError.invalid("a state of " + len + " bytes (at most " + Port.MAX_STATE + ")", path + "[" + i + "]");
      if (len > b.remaining()) throw PortError.invalid("the body ends inside a state", path + "[" + i + "]");
      ByteBuffer slice = b.slice(b.position(), len);
      b.position(b.position() + len);
      try {
        CharBuffer c = utf8.decode(slice);
        out.add(c.toString());
      } catch (CharacterCodingException e) {
        throw PortError.invalid("not UTF-8", path + "[" + i + "]");
      }
    }
    return out;
  }

  private static String ref(List<String> table, int i, String path) {
    if (i < 0 || i >= table.size()) throw PortError.invalid("index " + Integer.toUnsignedString(i) + " is outside its table (" + table.size() + " entries)", path);
    return table.get(i);
  }

  private static String digest(List<String> table, int i, String path) {
    return i == -1 ? null : ref(table, i, path);
  }
}
