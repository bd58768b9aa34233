#!/bin/sh
# The repository stands alone: no build, test, script or document in it may
# reach outside it (a clone has no sibling shared folder). Fails naming each
# offending line.
root=${1:?usage: standalone.sh SOURCE_ROOT}
cd "$root" || exit 1
# The sibling folder's name is spelled in two halves so that this script
# does not name it itself.
outside='\.\./sha''red'
hits=$(grep -rnI --exclude-dir=build\* --exclude-dir=.git \
  --exclude-dir=subprojects -e "$outside" . )
if [ -n "$hits" ]; then
  echo "files that point outside the repository:"
  echo "$hits"
  exit 1
fi
echo "no file points outside the repository"
