#!/usr/bin/env bash
# Every tracked C++ source (.cpp, .hpp, .h) is laid out as .clang-format says (clang-format 14,
# which tools/lib/setup.sh installs). CUDA sources (.cu, .cuh) keep the layout they have: they are
# the kernels that reports, golden outputs and tests cite by line and column. Usage:
#   tests/format_test.sh SOURCE_DIR          check: exit 1 listing the files that differ
#   tests/format_test.sh SOURCE_DIR --fix    rewrite them in place
# Exit 77 (skipped) outside a git checkout or without clang-format-14.
set -u
root=${1:?usage: format_test.sh SOURCE_DIR [--fix]}
format=$(command -v clang-format-14 || true)
if [ -z "$format" ]; then
  echo "format_test: clang-format-14 is not installed; skipped"
  exit 77
fi
if ! command -v git > /dev/null || ! git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  echo "format_test: $root is not a git checkout; skipped"
  exit 77
fi
cd "$root" || exit 1
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
if [ "${2:-}" = "--fix" ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 50 "$format" -i
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! "$format" --dry-run --Werror "$f" > /dev/null 2>&1; then bad+=("$f"); fi
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "not laid out as .clang-format says (run tests/format_test.sh . --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format_test: ${#files[@]} files laid out as .clang-format says"
