#!/bin/sh
# An install builds only what it installs: configured as scripts/demo
# configures (-Dtests=false), a build holds no executable that `meson
# install` leaves behind (benchmarks, tests, fuzz targets). Fails naming
# each one.
root=${1:?usage: install_targets.sh SOURCE_ROOT}
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
meson setup "$scratch/build" "$root" -Dtests=false >"$scratch/setup.log" 2>&1 || {
  cat "$scratch/setup.log"; exit 1; }
meson introspect --targets "$scratch/build" | /usr/bin/python3 -c '
import json, sys
extra = [t["name"] for t in json.load(sys.stdin)
         if t["type"] == "executable" and t["build_by_default"] and not t["installed"]]
if extra:
    print("built by meson install but not installed:", " ".join(sorted(extra)))
    sys.exit(1)
print("meson install builds only what it installs")
'
