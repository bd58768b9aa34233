#!/bin/sh
# The repository stands alone: no build, test, script or document in it may
# reach outside it (a clone has no ../shared beside it). Fails naming each
# offending line.
root=${1:?usage: standalone.sh SOURCE_ROOT}
cd "$root" || exit 1
hits=$(grep -rnI --exclude=standalone.sh --exclude-dir=build\* \
  --exclude-dir=.git --exclude-dir=subprojects -e '\.\./shared' . )
if [ -n "$hits" ]; then
  echo "files that point outside the repository:"
  echo "$hits"
  exit 1
fi
echo "no file points at ../shared"
