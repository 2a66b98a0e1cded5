#!/bin/sh
# Compile MARJJ_v5 and the EAAI framework into build/classes: the classpath the experiment
# files of this folder name (java:build/classes:MARJJ_v5, relative to where ginsim runs).
# Fetch the two sources first, then run this from the repository's root (docs/java.md,
# "Worked example", explains each step):
#
#   git clone https://github.com/tneller/gin-rummy-eaai
#   git clone https://github.com/aqibahm/MARJJ
#   sh experiments/java/compile_marjj.sh [FRAMEWORK_DIR [MARJJ_DIR]]
#
# FRAMEWORK_DIR defaults to ./gin-rummy-eaai and MARJJ_DIR to ./MARJJ. MARJJ_v5-1.java
# declares `public class MARJJ_v5` without importing the framework, so it is saved as
# MARJJ_v5.java with the import added. javac comes from JAVA_HOME, or else the PATH.
set -eu
framework=${1:-gin-rummy-eaai}
marjj=${2:-MARJJ}

fail() {
    echo "compile_marjj: $*" >&2
    exit 2
}

[ -d "$framework/ginrummy" ] ||
    fail "no $framework/ginrummy: git clone https://github.com/tneller/gin-rummy-eaai (or name its folder)"
[ -f "$marjj/MARJJ_v5-1.java" ] ||
    fail "no $marjj/MARJJ_v5-1.java: git clone https://github.com/aqibahm/MARJJ (or name its folder)"
javac=javac
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    javac="$JAVA_HOME/bin/javac"
fi
command -v "$javac" >/dev/null 2>&1 ||
    fail "no javac: install a JDK (Debian/Ubuntu: apt-get install default-jdk-headless) or set JAVA_HOME"

rm -rf build/src/ginrummy
mkdir -p build/src build/classes
cp -r "$framework/ginrummy" build/src/
{
    echo 'import ginrummy.*;'
    cat "$marjj/MARJJ_v5-1.java"
} >build/src/MARJJ_v5.java
"$javac" -nowarn -d build/classes build/src/ginrummy/*.java build/src/MARJJ_v5.java
echo "compiled: java:build/classes:MARJJ_v5"
