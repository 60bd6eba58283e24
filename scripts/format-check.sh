#!/usr/bin/env bash
# Checks that every C++ and CUDA source git tracks is formatted with the repository's .clang-format.
# Formatting differs between clang-format versions, so the check uses clang-format 14 (Debian 12's;
# package clang-format-14), the version the tree was formatted with. Fix with:
#   git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' | xargs clang-format-14 -i
set -euo pipefail
cd "$(dirname "$0")/.."
tool=clang-format-14
if ! command -v "$tool" >/dev/null; then
  if command -v clang-format >/dev/null && clang-format --version | grep -q "version 14\."; then
    tool=clang-format
  else
    echo "format-check: clang-format 14 not found (apt-get install clang-format-14)" >&2
    exit 2
  fi
fi
if git ls-files -z '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' | xargs -0 "$tool" --dry-run --Werror 2>/tmp/format-check.$$; then
  rm -f /tmp/format-check.$$
  echo "format-check: every source is formatted"
else
  grep -o "^[^:]*:[0-9]*:[0-9]*: error" /tmp/format-check.$$ | cut -d: -f1 | sort -u | sed 's/^/  not formatted: /' >&2
  rm -f /tmp/format-check.$$
  echo "format-check: run clang-format-14 -i on the files above" >&2
  exit 1
fi
