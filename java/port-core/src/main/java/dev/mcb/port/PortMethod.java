package dev.mcb.port;

import com.google.gson.JsonObject;

/**
 * One method of the port's table: its JSON parameters in, its JSON result out, a {@link PortError}
 * for a refusal. The protocol's methods are {@link Port}'s own; a host may add methods of its own
 * with {@link Port#addMethod} before it serves (the tests' host adds its hooks this way).
 */
@FunctionalInterface
public interface PortMethod {
  JsonObject call(JsonObject params);
}
