# The pieces the shell tests of the `pincer` binary (tests/cli/*.sh) share. Sourced, never run
# (tests/CMakeLists.txt makes no test of it): a script starts with
#   source "$(dirname "$0")/lib.sh"
# and ctest runs it as `bash SCRIPT PINCER SOURCE_DIR`. It gives:
#   set -u, and pincer=$1 (the binary under test);
#   failures=0, the count of failed checks, and what adds to it, each printing a FAIL line:
#     check NAME EXPECTED ACTUAL      unless EXPECTED and ACTUAL are equal (both printed);
#     contains NAME NEEDLE HAYSTACK   unless NEEDLE is in HAYSTACK (printed);
#     fail MESSAGE...                 always;
#   (a script may define its own check or contains after the source line, in place of these);
#   need_torch            exits with 77 (ctest's skip) when there is no torch library
#                         (pincer-torch.so) beside $pincer;
#   make_tmp              sets tmp to a new temporary directory, removed at exit (an EXIT trap:
#                         a script with more to clean up sets its own instead);
#   finish MESSAGE        prints MESSAGE when nothing failed, else how many checks failed; exits 1
#                         if anything did, else 0.
set -u
pincer=$1
failures=0
check() {
  if [ "$2" != "$3" ]; then
    printf 'FAIL %s\n  expected: %s\n  actual:   %s\n' "$1" "$2" "$3"
    failures=$((failures + 1))
  fi
}
contains() {
  case "$3" in *"$2"*) ;; *) printf 'FAIL %s: no "%s" in:\n%s\n' "$1" "$2" "$3"; failures=$((failures + 1)) ;; esac
}
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
need_torch() {
  [ -f "$(dirname "$pincer")/pincer-torch.so" ] || { echo "no torch part of pincer: skipped"; exit 77; }
}
make_tmp() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}
finish() {
  if [ $failures -eq 0 ]; then echo "$1"; else echo "$failures failed"; fi
  exit $((failures > 0))
}
