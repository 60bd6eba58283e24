#!/usr/bin/env bash
# On a CUDA machine without Qt: build the engine, the CLI, the tests and the benchmarks, run the gpu
# tests, run compute-sanitizer (memcheck, initcheck, synccheck, racecheck) over the gpu tests at small
# sizes, then the benchmarks. Prints one summary line per step; exits non-zero when any step failed.
#   scripts/gpu-check.sh [--no-bench] [--no-tests] [--tools memcheck,initcheck,synccheck,racecheck] [--build-dir DIR]
# --tools picks which sanitizers run (all four by default; "none" for none), so the check can be split over
# several calls of a time-limited machine.
set -uo pipefail
cd "$(dirname "$0")/.."

bench=1
tests_run=1
tools=memcheck,initcheck,synccheck,racecheck
build=build/gpu-check
limit=300  # seconds per sanitizer run: a hung or far too slow tool is a failure, not a stall
while (($#)); do
  case "$1" in
    --no-bench) bench=0 ;;
    --no-tests) tests_run=0 ;;
    --tools) tools=$2; shift ;;
    --build-dir) build=$2; shift ;;
    *) echo "usage: $0 [--no-bench] [--no-tests] [--tools LIST|none] [--build-dir DIR]" >&2; exit 2 ;;
  esac
  shift
done
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
command -v compute-sanitizer >/dev/null || { echo "gpu-check: compute-sanitizer not found (CUDA toolkit bin/)" >&2; exit 2; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || { echo "gpu-check: no CUDA device" >&2; exit 2; }

logs=$build/gpu-check-logs
mkdir -p "$logs"
failed=0
step() {  # step NAME COMMAND...: runs, logs, prints one line
  local name=$1; shift
  local start=$SECONDS
  if "$@" >"$logs/$name.log" 2>&1; then echo "ok     $name ($((SECONDS - start)) s)"
  else echo "FAILED $name ($((SECONDS - start)) s): see $logs/$name.log"; failed=1; fi
}

step configure cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLUSTERLENS_GUI=OFF \
  -DCLUSTERLENS_BENCHMARKS=$([ $bench = 1 ] && echo ON || echo OFF) -DCMAKE_CUDA_ARCHITECTURES=90
step build cmake --build "$build" -j "$(nproc)" --target clusterlens_gpu_tests $([ $bench = 1 ] && echo clusterlens-bench)
tests=$build/tests/clusterlens_gpu_tests
[ $tests_run = 1 ] && step gpu-tests "$tests"

echo "gpu-check: logs in $logs"
# Sanitizers at small sizes: every non-MHCA gpu test (of the k-means matrix product the two small ones),
# and every MHCA path on about a hundred points.
small='MstParity.*:VatParity.*:DensityPeaksParity.*:DensityPeaksShares.*:KMeansParity.*:ClassicLinkageParity.*'
small+=':MhcaCudaSmallPaths.*:MhcaCudaParity.TiesGoToTheFirstPairLikeTheCpu:MhcaCudaInput.*'
small+=':KMeansMatrixAssign.TiesGoToTheLowerLabelAsInTheKernel:KMeansMatrixAssign.EqualsTheKernelFarFromTheOrigin'
sanitize() {  # sanitize TOOL FILTER [PROGRAM]: fails on any reported error
  local out
  out=$(timeout "$limit" compute-sanitizer --tool "$1" --print-limit 50 --error-exitcode 99 "${3:-$tests}" --gtest_filter="$2" 2>&1)
  local rc=$?
  echo "$out"
  echo "$out" | grep -E "(ERROR|RACECHECK) SUMMARY|^\[  (PASSED|FAILED)  \]"
  return $rc
}
# racecheck reports false hazards after a named barrier with a thread count, which the MHCA shape team
# uses: the reproducer shows the tool's behaviour on this machine, and racecheck checks the gpu tests of
# a build whose shape team syncs on an mbarrier (CLUSTERLENS_RACECHECK_BARRIERS), which it models.
race_build=$build-racecheck
race_tests=$race_build/tests/clusterlens_gpu_tests
reproducer() {  # racecheck's hazards on a correct kernel, per team barrier
  nvcc -std=c++20 -arch=sm_90 -lineinfo tests/gpu/sanitizer/named_barrier_race.cu -o "$race_build/named_barrier_race" || return 1
  local variant
  for variant in none mbarrier named; do
    echo "$variant: $(compute-sanitizer --tool racecheck "$race_build/named_barrier_race" "$variant" 2>&1 | grep -o 'RACECHECK SUMMARY.*')"
  done
}
if [[ ,$tools, == *,racecheck,* ]]; then
  mkdir -p "$race_build"
  step racecheck-reproducer reproducer
  sed 's/^/  /' "$logs/racecheck-reproducer.log"
  step racecheck-configure cmake -S . -B "$race_build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLUSTERLENS_GUI=OFF \
    -DCLUSTERLENS_BENCHMARKS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCLUSTERLENS_RACECHECK_BARRIERS=ON
  step racecheck-build cmake --build "$race_build" -j "$(nproc)" --target clusterlens_gpu_tests
fi
# racecheck slows the DPC parity tests 20-50x (the 20,000-point cases take minutes): the smaller ones.
race='MhcaCudaSmallPaths.*:MhcaCudaInput.*:KMeansParity.*'
race+=':DensityPeaksParity.HaloIsIdenticalToCpu:DensityPeaksParity.GpuChecksInputAndCancel'
race+=':VatParity.TiedDistancesStillGiveAMinimumSpanningTree:VatParity.RendererEqualsCpuPixelForPixel'
for tool in ${tools//,/ }; do
  case $tool in
    none) continue ;;
    racecheck) step sanitize-racecheck sanitize racecheck "$race" "$race_tests" ;;
    memcheck|initcheck|synccheck) step "sanitize-$tool" sanitize "$tool" "$small" ;;
    *) echo "gpu-check: unknown tool '$tool' in --tools" >&2; exit 2 ;;
  esac
  grep -hE "(ERROR|RACECHECK) SUMMARY" "$logs/sanitize-$tool.log" | sed "s/^/$tool: /" | head -1
done

if [ $bench = 1 ]; then
  step benchmarks "$build/bench/clusterlens-bench" --json
  echo "benchmark JSON: $logs/benchmarks.log"
fi
exit $failed
