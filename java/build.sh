#!/usr/bin/env bash
# Builds the Java world port (port-core, port-minestom) with its JUnit tests, on Java 25, and prints
# the JUnit totals (Maven itself runs quietly). Two hosts: Minecraft 26.2 (the default, in
# port-minestom/target/) and 26.1.2 (-Pmc-26.1.2, in port-minestom/target-26.1.2/: mineflayer
# 4.39.0, the bot of the live tests, speaks only 26.1). The same sources, the tests run once.
# Usage: bash java/build.sh [extra maven args]   (e.g. -DskipTests)
set -euo pipefail
cd "$(dirname "$0")"
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if [ ! -x "$JAVA_HOME/bin/java" ]; then
  echo "java/build.sh: Java 25 not found at $JAVA_HOME (set JAVA_HOME_25)" >&2
  exit 1
fi
export PATH="$JAVA_HOME/bin:$PATH"
# Maven 3.8 uses sun.misc.Unsafe through its own Guava: Java 25 warns about it on every run; allowed here.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
rm -rf ./*/target/surefire-reports
status=0
mvn -B -q package "$@" || status=$?
if [ "$status" -eq 0 ]; then
  mvn -B -q -Pmc-26.1.2 package -DskipTests "$@" || status=$?
fi
# An AOT cache per host (JEP 514: the classes a start loads and links, kept from a training run):
# the host then starts in about two thirds of the time (4.3 s -> 2.7 s here), which every live test
# and `npm run server` pays. The training run starts the host on a throwaway world, waits for its
# ready line and stops it; the JVM writes the cache on the way out. Optional: a host without its
# cache (or with a stale one: the JVM says so and goes on) only starts slower.
train_aot() {
  local target=$1 world log pid
  # Absolute paths: the cache holds the class path it was made for, and the tests and server.sh give it so.
  local jar=$PWD/port-minestom/$target/mcb-port-minestom.jar aot=$PWD/port-minestom/$target/mcb-port-minestom.aot
  [ -f "$jar" ] || return 0
  world=$(mktemp -d)
  log="$world/train.log"
  rm -f "$aot"
  MCB_PORT_TOKEN=aot-training-run-token-0000000000 "$JAVA_HOME/bin/java" -XX:AOTCacheOutput="$aot" @host.jvm-options -jar "$jar" \
    --world "$world/world" --game-port 0 --http-port 0 --load-radius 4 >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    grep -q "mcb-port ready" "$log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  sleep 1 # a few ticks and an autosave's worth of classes too
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || true
  if [ -f "$aot" ] && grep -q "mcb-port ready" "$log"; then
    echo "java host $target: AOT cache $(( $(stat -c %s "$aot") / 1048576 )) MB"
  else
    rm -f "$aot" # a training run that never got ready would make a cache of the wrong classes
    echo "java host $target: no AOT cache (it starts without one):"
    tail -5 "$log"
  fi
  rm -rf "$world"
}
if [ "$status" -eq 0 ]; then
  train_aot target
  train_aot target-26.1.2
fi
# JUnit totals per module, from surefire's reports (none when the tests were skipped).
for module in port-core port-minestom; do
  reports=("$module"/target/surefire-reports/*.txt)
  [ -e "${reports[0]}" ] || continue
  awk -v m="$module" -F'[:,]' '/^Tests run:/ { run += $2; fail += $4; err += $6; skip += $8 }
    END { printf "java %s: %d JUnit tests, %d failures, %d errors, %d skipped\n", m, run, fail, err, skip }' "${reports[@]}"
done
exit "$status"
