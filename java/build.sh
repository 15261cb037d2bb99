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
# JUnit totals per module, from surefire's reports (none when the tests were skipped).
for module in port-core port-minestom; do
  reports=("$module"/target/surefire-reports/*.txt)
  [ -e "${reports[0]}" ] || continue
  awk -v m="$module" -F'[:,]' '/^Tests run:/ { run += $2; fail += $4; err += $6; skip += $8 }
    END { printf "java %s: %d JUnit tests, %d failures, %d errors, %d skipped\n", m, run, fail, err, skip }' "${reports[@]}"
done
exit "$status"
