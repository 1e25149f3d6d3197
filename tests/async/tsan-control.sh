#!/bin/sh
# Control run for the ThreadSanitizer build: with PSC_TEST_PLANT_RACE=1 the
# test program (not the library, which reads no environment variable) asks
# the core for its planted-race test hook: a data race in the worker -> pump
# hand-off (a worker writes its completion record after releasing the lock).
# ThreadSanitizer must report it, in worker_main; if it does not, the
# sanitizer run proves nothing and this test fails.
set -u
test_binary="$1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
PSC_TEST_PLANT_RACE=1 TSAN_OPTIONS="${TSAN_OPTIONS:-} halt_on_error=0 exitcode=66" \
  "$test_binary" -p /async/duplicates-one-job >"$log" 2>&1
status=$?
if [ "$status" -ne 66 ]; then
  echo "expected ThreadSanitizer's exit status 66, got $status"
  cat "$log"
  exit 1
fi
if ! grep -q "WARNING: ThreadSanitizer: data race" "$log" || ! grep -q "worker_main" "$log"; then
  echo "ThreadSanitizer did not report the planted race in worker_main"
  cat "$log"
  exit 1
fi
echo "the planted race was reported:"
grep -m1 -A6 "WARNING: ThreadSanitizer: data race" "$log"
exit 0
