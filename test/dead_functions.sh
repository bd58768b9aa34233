#!/bin/sh
# scripts/dead-functions finds a planted dead function, a dead recursive
# one and one only a test calls, in objects laid out as a build's, and
# passes the same tree once they are gone. -O0 keeps the recursive call
# a call (a relocation naming the function itself).
# Usage: dead_functions.sh SOURCE_ROOT
set -eu
script="$1/scripts/dead-functions"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/playback/lib.p" "$dir/tools/exe.p" "$dir/test/t.p"
compile() {  # OBJECT SOURCE
  printf '%s\n' "$2" | c++ -O0 -fPIC -x c++ -c -o "$dir/$1" -
}
library='int Used(int n) { return n + 1; }
int Planted(int n) { return n * 3; }
int Countdown(int n) { return n > 0 ? Countdown(n - 2) + 1 : 0; }
int ForTests(int n) { return n - 1; }'
compile playback/lib.p/lib.cc.o "$library"
compile tools/exe.p/main.cc.o 'int Used(int); int main(int argc, char**) { return Used(argc); }'
compile test/t.p/t.cc.o 'int ForTests(int); int Used(int); int T(int n) { return ForTests(n) + Used(n); }'

if "$script" --tree "$dir" >"$dir/out"; then
  echo "FAIL: planted dead functions passed"; cat "$dir/out"; exit 1
fi
for line in 'dead: Planted(int)' 'dead: Countdown(int)' 'test-only: ForTests(int)'; do
  grep -q "^$line " "$dir/out" || { echo "FAIL: no '$line'"; cat "$dir/out"; exit 1; }
done
if grep -q -E 'Used|main' "$dir/out"; then
  echo "FAIL: a live function reported"; cat "$dir/out"; exit 1
fi

compile playback/lib.p/lib.cc.o 'int Used(int n) { return n + 1; }'
compile test/t.p/t.cc.o 'int Used(int); int T(int n) { return Used(n); }'
"$script" --tree "$dir" || { echo "FAIL: a tree without dead functions failed"; exit 1; }
echo "planted dead functions found, none in a clean tree"
