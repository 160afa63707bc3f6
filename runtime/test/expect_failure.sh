#!/bin/sh
# Runs a command that must FAIL (non-zero exit) within LIMIT seconds and whose
# output must match every given extended regex.
# Usage: expect_failure.sh LIMIT REGEX... -- COMMAND ARGS...
limit=$1; shift
patterns_file=$(mktemp); trap 'rm -f "$patterns_file"' EXIT
while [ $# -gt 0 ] && [ "$1" != "--" ]; do printf '%s\n' "$1" >>"$patterns_file"; shift; done
[ "$1" = "--" ] && shift
start=$(date +%s)
out=$(timeout "$limit" "$@" 2>&1); rc=$?
elapsed=$(( $(date +%s) - start ))
printf '%s\n' "$out"
echo "expect_failure: exit code $rc after ${elapsed}s"
if [ "$rc" -eq 0 ]; then echo "expect_failure: FAIL: the job succeeded"; exit 1; fi
if [ "$rc" -eq 124 ]; then echo "expect_failure: FAIL: the job hung (killed after ${limit}s)"; exit 1; fi
while IFS= read -r p; do
  if ! printf '%s\n' "$out" | grep -Eq -- "$p"; then
    echo "expect_failure: FAIL: output does not match: $p"; exit 1
  fi
done <"$patterns_file"
echo "expect_failure: PASS"
