#!/usr/bin/env bash
# Installs everything the tests need (Python deps in .venv, the Node.js bot's packages, Chromium,
# bubblewrap)
# and runs the whole suite. `.ci/run` calls this; so can you.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PY" -m venv .venv
fi
echo "==> installing arena with the dev extra"
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[dev]'
# The example outside game (docs/adding-a-game.md): registered through its own entry point, offline.
.venv/bin/python -m pip install -q --no-deps --no-build-isolation -e examples/liars_dice

if [ -f bots/node/package-lock.json ]; then
  if command -v npm >/dev/null 2>&1; then
    echo "==> installing the Node.js bot's packages"
    (cd bots/node && npm ci --no-audit --no-fund --loglevel=error)
  elif [ "${CI:-}" = "true" ]; then
    echo "npm is required in CI" >&2; exit 1
  fi
fi

if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing Chromium (browser tests)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "!! Chromium is missing and cannot be installed here: browser tests will skip (they fail in CI)" >&2
  fi
fi

if ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing bubblewrap (the hosted bots' sandbox)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null
  else
    echo "!! bwrap is missing and cannot be installed here: the red-team tests fail (hosted bots are refused)" >&2
  fi
fi

# The Go bot (bots/go) is built offline from Debian's Go and gRPC packages; the tests build it.
GO_DEBS="golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-goprotobuf-dev protobuf-compiler protoc-gen-go-grpc"
if ! command -v go >/dev/null 2>&1 || ! command -v protoc-gen-go-grpc >/dev/null 2>&1 \
    || [ ! -d /usr/share/gocode/src/google.golang.org/grpc ] || [ ! -d /usr/share/gocode/src/google.golang.org/protobuf ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing Go and gRPC for Go (the Go bot)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $GO_DEBS >/dev/null
  else
    echo "!! the Go toolchain is missing and cannot be installed here: Go bot tests will skip (they fail in CI)" >&2
  fi
fi

echo "==> running the tests"
# With no test paths given, the whole suite runs in two parts: the pure-logic directories (engines,
# rules, conformance, golden games: no services, no clocks, no shared database) on two workers, then
# everything that starts processes, servers or timers one test at a time, so timing tests are not
# starved. With paths (or -k, ...), one plain run of what was asked.
PARALLEL=(tests/games tests/engine tests/conformance tests/golden)
split=1
for arg in "$@"; do
  case "$arg" in -q|-v|-x|-s|-ra|--durations=*|-p|no:cacheprovider) ;; *) split=0 ;; esac
done
set +e
if [ "$split" = "1" ]; then
  .venv/bin/python -m pytest "$@" -n 2 "${PARALLEL[@]}"
  rc1=$?
  ignore=()
  for d in "${PARALLEL[@]}"; do ignore+=(--ignore="$d"); done
  .venv/bin/python -m pytest "$@" "${ignore[@]}"
  rc=$?
  [ "$rc1" != "0" ] && [ "$rc" = "0" ] && rc=$rc1
else
  .venv/bin/python -m pytest "$@"
  rc=$?
fi
set -e
if [ "$rc" = "5" ]; then
  echo "pytest collected no tests" >&2
  exit 1
fi
exit "$rc"
