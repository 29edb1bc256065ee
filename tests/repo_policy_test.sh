#!/usr/bin/env bash
# Repository policy, checked without a GPU or the network: README.md stays short (at most 250
# lines), and no tracked source, test, script or document names an issue number (code and docs
# say what they do, not which request asked for them; history lives in git). Usage:
#   tests/repo_policy_test.sh SOURCE_DIR
# Exit 0 when both hold, 1 with the offending lines when not, 77 (skipped) outside a git checkout.
set -u
root=${1:?usage: repo_policy_test.sh SOURCE_DIR}

if ! command -v git > /dev/null || ! git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  echo "repo_policy_test: $root is not a git checkout; skipped"
  exit 77
fi

status=0
readme_lines=$(wc -l < "$root/README.md")
if [ "$readme_lines" -gt 250 ]; then
  echo "README.md: $readme_lines lines; at most 250 (move the detail into docs/guide/)"
  status=1
fi

# The tracked files of these kinds (git grep searches exactly the files git ls-files lists, as
# they are in the work tree), tools/ scripts without an extension included; this script exempt.
specs=('*.cpp' '*.h' '*.hpp' '*.cu' '*.cuh' '*.md' '*.txt' '*.sh' '*.py' '*.toml' '*.cmake' 'tools/*'
       ':(exclude)tests/repo_policy_test.sh')
hits=$(git -C "$root" grep -nIE '[Ii]ssues? ?#?[0-9]+' -- "${specs[@]}")
if [ -n "$hits" ]; then
  echo "issue numbers in tracked files (say what the code does instead):"
  echo "$hits"
  status=1
fi
exit $status
