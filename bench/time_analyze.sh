#!/usr/bin/env bash
# Wall time of `warpdiv analyze` as a whole process (start, parse, engine, report, CSV, exit), N runs
# timed with date +%s%N; prints min / median / max in ms. Needs nothing beyond bash and coreutils.
# Usage: bench/time_analyze.sh [BUILD_DIR] [N] [ANALYZE ARGS...]   (default: build, 30, and the
# 2^31-1 cube at T = 32). A --csv to a temporary file is added to the arguments.
#   bench/time_analyze.sh build 30 kernels/zoo/tiled_matmul.cu --grid 7,7 --block 16,16 --arg Width=100
set -euo pipefail
build="${1:-$(dirname "$0")/../build}"
runs="${2:-30}"
shift $(( $# > 2 ? 2 : $# ))
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--rows 2147483647 --inner 2147483647 --cols 2147483647 --tile 32)
csv="$(mktemp /tmp/warpdiv-time-XXXXXX.csv)"
trap 'rm -f "$csv"' EXIT
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  "$build/warpdiv" analyze "${args[@]}" --csv "$csv" >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))  # microseconds
done
printf '%s\n' "${times[@]}" | sort -n | awk -v what="warpdiv analyze ${args[*]} --csv" '{t[NR] = $1}
  END { printf "%s: min %.2f ms, median %.2f ms, max %.2f ms (%d runs)\n",
        what, t[1] / 1000, t[int((NR + 1) / 2)] / 1000, t[NR] / 1000, NR }'
