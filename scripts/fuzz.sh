#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan) and runs each for a fixed time, as
# many at once as there are cores (a libFuzzer process uses one), starting from the seed corpus (written fresh by clusterlens_fuzz_seeds) and the corpus
# kept in build/fuzz/corpus from earlier runs. Prints the executions per target and in total; exits 1
# when a target found a crash, leak, hang or sanitizer report (the input is kept in build/fuzz/findings).
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     # default 600
#   CLUSTERLENS_FUZZ_TARGETS="fcs text" scripts/fuzz.sh 60
# docs/reliability.md describes the targets and the counts measured.
set -euo pipefail

seconds=${1:-600}
[[ "$seconds" =~ ^[0-9]+$ ]] && ((seconds > 0)) || { echo "usage: $0 [SECONDS_PER_TARGET]" >&2; exit 2; }
cd "$(dirname "$0")/.."
root=$PWD
build=$root/build/fuzz
targets=(${CLUSTERLENS_FUZZ_TARGETS:-fcs text binary hdf5 linkage labels apriori session})

command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLUSTERLENS_FUZZ=ON \
  -DCLUSTERLENS_GUI=OFF -DCLUSTERLENS_CUDA=OFF -DCLUSTERLENS_TESTS=OFF -DCLUSTERLENS_BENCHMARKS=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" --target clusterlens_fuzz

# UBSan aborts on its first report (cmake/Fuzz.cmake); leaks inside third-party libraries are theirs.
export LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=1:intercept_tls_get_addr=0}
rm -rf "$build/seeds"
"$build/tests/fuzz/clusterlens_fuzz_seeds" "$root" "$build/seeds"
mkdir -p "$build/findings" "$build/logs"
run_target() {
  local target=$1 corpus=$build/corpus/$1 log=$build/logs/$1.log status=0
  mkdir -p "$corpus"
  # -timeout: an input running 10 s is a hang; -rss_limit_mb: one that needs 2 GiB is a finding too.
  "$build/tests/fuzz/clusterlens_fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$target-" "$corpus" "$build/seeds/$target" \
    >"$log" 2>&1 || status=$?
  echo "$status" >"$build/logs/$target.status"
}
parallel=$(nproc)
running=0
for target in "${targets[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if ((running >= parallel)); then
    wait -n
    running=$((running - 1))
  fi
done
wait
total=0
failed=()
for target in "${targets[@]}"; do
  log=$build/logs/$target.log
  status=$(cat "$build/logs/$target.status")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  runs=${runs:-0}
  total=$((total + runs))
  if ((status != 0)); then
    failed+=("$target")
    echo "fuzz: $target FAILED after $runs executions (exit $status); log: $log"
    grep -E "ERROR|SUMMARY|runtime error|finding|Test unit written" "$log" | head -20 || true
  else
    echo "fuzz: $target: $runs executions in ${seconds} s, corpus $(ls "$build/corpus/$target" | wc -l) inputs"
  fi
done
echo "fuzz: $total executions in total over ${#targets[@]} targets (${seconds} s each)"
if ((${#failed[@]})); then
  echo "fuzz: findings in: ${failed[*]} (inputs in $build/findings)" >&2
  exit 1
fi
echo "fuzz: no crash, leak or hang"
