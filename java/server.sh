#!/usr/bin/env bash
# Runs the Minestom host: a Minecraft 26.2 server (offline mode, flat world) with the world port;
# `--mc-version 26.1.2` first runs the 26.1.2 build instead (for 26.1 clients such as mineflayer).
# Usage: bash java/server.sh [--mc-version 26.2|26.1.2] [--world DIR] [--game-port N] [--http-port N] ...  (see --help below)
# The port token: MCB_PORT_TOKEN, or --token-file, or created once in DIR/port-token (mode 0600).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=target
if [ "${1:-}" = "--mc-version" ]; then
  case "${2:-}" in
    26.2) ;;
    26.1.2) TARGET=target-26.1.2 ;;
    *) echo "java/server.sh: --mc-version is 26.2 (the default) or 26.1.2" >&2; exit 2 ;;
  esac
  shift 2
fi
JAR=$PWD/java/port-minestom/$TARGET/mcb-port-minestom.jar
# Rebuild only when a source or build file is newer than the jar (Maven takes most of a start).
if [ ! -f "$JAR" ] || [ -n "$(find java \( -path '*/target' -o -path '*/target-26.1.2' \) -prune -o \( -name '*.java' -o -name 'pom.xml' -o -path '*/resources/*' \) -newer "$JAR" -print -quit)" ]; then
  bash java/build.sh -DskipTests
fi
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
# JVM flags: java/host.jvm-options (a fixed heap, ZGC: no pause inside a tick); MCB_JAVA_OPTS
# replaces them (e.g. "-Xms4g -Xmx4g -XX:+UseZGC").
# The AOT cache java/build.sh trained for this jar, when there is one: a faster start. Only when it
# is newer than the jar: the JVM took a cache from before a rebuild (mvn alone) without a word and ran
# the classes it held, not the jar's.
AOT=()
[ "${JAR%.jar}.aot" -nt "$JAR" ] && AOT=("-XX:AOTCache=${JAR%.jar}.aot")
# Run as root, the JVM may raise the priority of the threads a tick waits for (TickGate.urgent) to
# nice -10; elsewhere the flags only print a warning, so they are passed only then.
PRIORITY=()
[ "$(id -u)" = 0 ] && PRIORITY=("-XX:ThreadPriorityPolicy=1" "-XX:JavaPriority10_To_OSPriority=-10")
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" ${MCB_JAVA_OPTS:-@java/host.jvm-options} "${PRIORITY[@]}" "${AOT[@]}" -jar "$JAR" "$@"
