#!/usr/bin/env bash
# The CLI on every file of the malformed-input corpus (tests/data/bad) and on a missing file:
# exactly one line on stderr, naming the file, and exit status 1. Graph files go through
# `abfs run FILE`, wisdom files through `abfs run --wisdom FILE`. Host only (--cpu-only).
# Usage: tests/cli_bad_input.sh ABFS_BINARY CORPUS_DIR
set -uo pipefail
abfs=$1; corpus=$2
export ABFS_HOST_MEMORY_LIMIT=256M  # a header declaring more is an error on its line
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failures=0; checked=0
check() {  # check FILE ARGS...: run abfs ARGS, expect one stderr line naming FILE and exit 1
  local file=$1; shift
  "$abfs" "$@" > "$work/out" 2> "$work/err"
  local rc=$? lines; lines=$(wc -l < "$work/err")
  checked=$((checked + 1))
  if [ "$rc" -ne 1 ] || [ "$lines" -ne 1 ] || ! grep -qF -- "$file" "$work/err"; then
    echo "FAIL: abfs $* -> exit $rc, $lines stderr lines:"; sed 's/^/    /' "$work/err"
    failures=$((failures + 1))
  fi
}
for f in "$corpus"/* "$corpus/no_such_file.mtx"; do
  case $f in
    *.yaml) check "$f" run --cpu-only --no-calibrate --wisdom "$f" grid:4:4 ;;
    *) check "$f" run --cpu-only --no-cache "$f" ;;
  esac
done
echo "cli_bad_input: $checked inputs, $failures failures"
[ "$failures" -eq 0 ] && [ "$checked" -ge 40 ]
