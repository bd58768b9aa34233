#!/bin/sh
# The Python package as a user gets it: `meson install` into a scratch
# DESTDIR, then Debian's /usr/bin/python3 imports it from there. The
# directory it lands in, without the DESTDIR, must be one that python3
# searches for this prefix (so that a real install needs no PYTHONPATH).
# Usage: install.sh BUILD_DIR PERFMONGER
set -eu
build=$1 pm=$2 py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >/dev/null
init=$(find "$tmp/root" -path '*/perfmonger/__init__.py' | head -1)
[ -n "$init" ] || { echo "FAIL the perfmonger package was not installed"; exit 1; }
site=$(dirname "$(dirname "$init")")
installed=${site#"$tmp/root"}
echo "installed into $installed"
for f in recording.py reading.py pytest_plugin.py py.typed; do
  [ -f "$site/perfmonger/$f" ] || { echo "FAIL $f not installed"; exit 1; }
done
# /usr and /usr/local are on Debian's python3 path; another prefix needs
# PYTHONPATH whatever the directory.
case $installed in
  /usr/lib/*|/usr/local/lib/*)
    $py -c "import sys; sys.exit(0 if '$installed' in sys.path else 1)" ||
      { echo "FAIL $installed is not on $py's sys.path"; exit 1; } ;;
  *) echo "prefix outside /usr and /usr/local: the sys.path check is skipped" ;;
esac
# Imported from the DESTDIR, not the source tree nor an older install.
got=$(cd "$tmp" && env -u PYTHONPATH PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 \
      $py -c 'import perfmonger; print(perfmonger.__file__)')
[ "$got" = "$init" ] || { echo "FAIL import perfmonger found $got, not $init"; exit 1; }
# And it works from there: a recording, read back.
cd "$tmp"
env -u PYTHONPATH PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 PERFMONGER="$pm" $py - <<'PY'
import perfmonger
with perfmonger.record("i.pgr.zst", interval="1h") as rec:
    rec.mark("installed")
try:
    import numpy  # noqa: F401
except ImportError:
    print("numpy missing: read() not checked")
else:
    cols = perfmonger.read("i.pgr.zst", as_dict=True)
    assert [m["label"] for m in cols.marks] == ["installed"], cols.marks
    assert len(cols["time"]) == 2
PY
echo "ok   import perfmonger from $installed"
