#!/usr/bin/env bash
# Runs the Minestom host: a Minecraft 26.1.2 server (offline mode, flat world) with the world port.
# Usage: bash java/server.sh [--world DIR] [--game-port N] [--http-port N] ...  (see --help below)
# The port token: MCB_PORT_TOKEN, or --token-file, or created once in DIR/port-token (mode 0600).
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=java/port-minestom/target/mcb-port-minestom.jar
# Rebuild only when a source or build file is newer than the jar (Maven takes most of a start).
if [ ! -f "$JAR" ] || [ -n "$(find java -path '*/target' -prune -o \( -name '*.java' -o -name 'pom.xml' -o -path '*/resources/*' \) -newer "$JAR" -print -quit)" ]; then
  bash java/build.sh -DskipTests
fi
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
exec "$JAVA_HOME/bin/java" -jar "$JAR" "$@"
