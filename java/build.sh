#!/usr/bin/env bash
# Builds the Java world port (port-core, port-minestom) with its JUnit tests, on Java 25.
# Usage: bash java/build.sh [extra maven args]   (e.g. -DskipTests)
set -euo pipefail
cd "$(dirname "$0")"
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if [ ! -x "$JAVA_HOME/bin/java" ]; then
  echo "java/build.sh: Java 25 not found at $JAVA_HOME (set JAVA_HOME_25)" >&2
  exit 1
fi
export PATH="$JAVA_HOME/bin:$PATH"
mvn -B -q package "$@"
