#!/usr/bin/env bash
# Wall time of `warpdiv analyze` on the 2^31-1 cube as a whole process (start, parse, exact engine,
# report, CSV, exit), N runs timed with date +%s%N; prints min / median / max in ms. Needs nothing
# beyond bash and coreutils. Usage: bench/time_analyze.sh [BUILD_DIR] [N]   (default build, 30)
set -euo pipefail
build="${1:-$(dirname "$0")/../build}"
runs="${2:-30}"
csv="$(mktemp /tmp/warpdiv-time-XXXXXX.csv)"
trap 'rm -f "$csv"' EXIT
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  "$build/warpdiv" analyze --rows 2147483647 --inner 2147483647 --cols 2147483647 --tile 32 \
    --csv "$csv" >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))  # microseconds
done
printf '%s\n' "${times[@]}" | sort -n | awk '{t[NR] = $1}
  END { printf "warpdiv analyze 2^31-1 cube, T = 32, --csv: min %.2f ms, median %.2f ms, max %.2f ms (%d runs)\n",
        t[1] / 1000, t[int((NR + 1) / 2)] / 1000, t[NR] / 1000, NR }'
