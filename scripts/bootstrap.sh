#!/usr/bin/env bash
# Set up a fresh Debian 12 / Ubuntu machine, build ClusterLens, then either start the GUI on the
# bundled demo dataset (`run`) or run the whole test suite (`test`).
#   scripts/bootstrap.sh run     # install what is missing, build, start the GUI with the demo data
#   scripts/bootstrap.sh test    # install what is missing, check the formatting, build the `ci` preset
#                                # (ASan + UBSan, GUI, CUDA when found, -Werror), run every test under
#                                # the sanitizers (GUI tests under Xvfb), then each fuzz target for 10 s
#                                # (scripts/fuzz.sh)
set -euo pipefail

mode=${1:-run}
case "$mode" in run|test) ;; *) echo "usage: $0 run|test" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config zlib1g-dev libhdf5-dev libgtest-dev libgmock-dev
          qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl-dev
          xvfb xauth libgl1-mesa-dri libglx-mesa0)
# The fuzz targets need clang and its libFuzzer runtime; the format check clang-format 14; the
# sanitizer build links with lld (cmake/Warnings.cmake).
# Open MPI: the CLI's density peaks across MPI ranks is compiled (and, on a GPU machine, tested).
[ "$mode" = test ] && packages+=(clang libclang-rt-14-dev clang-format-14 lld libopenmpi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "clusterlens: installing missing packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
  else
    echo "clusterlens: these packages are missing and this script is not running as root:" >&2
    echo "  sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

# The CUDA toolkit is optional: used when nvcc is on PATH or in /usr/local/cuda.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi

jobs=$(nproc)
if [ "$mode" = run ]; then
  preset=dev
  cmake --preset "$preset"
  # Only what is started: the GUI (tests and benchmarks are built by `test`).
  cmake --build --preset "$preset" -j "$jobs" --target clusterlens
  gui=build/$preset/app/gui/clusterlens
  if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "clusterlens: no display found; starting under Xvfb (xvfb-run)" >&2
    exec xvfb-run -a "$gui" --demo
  fi
  exec "$gui" --demo
fi

# test: each stage is timed; the times are printed at the end (CI has 2 cores). One build serves the
# tests: `ci` is the sanitizer build (CMakePresets.json), and its test preset sets ASAN_OPTIONS,
# UBSAN_OPTIONS and LSAN_OPTIONS (tests/sanitizers/lsan.supp).
times=()
stage() {
  local name=$1 start=$SECONDS
  shift
  echo "clusterlens: --- $name"
  "$@"
  times+=("$name $((SECONDS - start)) s")
}
stage "format check" bash scripts/format-check.sh
stage "ci build" bash -c "cmake --preset ci && cmake --build --preset ci -j $jobs"
stage "ci tests" ctest --preset ci -j "$jobs" --timeout 1500
stage "fuzz (build, 10 s per target)" bash scripts/fuzz.sh 10
echo "clusterlens: stage times: $(IFS=,; echo "${times[*]}" | sed 's/,/, /g')"
