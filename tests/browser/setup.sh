# Sourced by the browser tests (run.sh, book_report.sh) after `pincer`, `src` and `build` are set:
# finds Debian's chromium (exit 77, skipped, without it or npm), installs puppeteer-core into
# build/browser-test/ (npm; nothing else is downloaded) and copies the test's own SCRIPT there.
# Sets `chromium` and `work`. Usage: source setup.sh SCRIPT.mjs
chromium=$(command -v chromium || true)
if [ -z "$chromium" ] || ! command -v npm >/dev/null; then
  echo "browser test skipped: needs chromium and npm (scripts/install-deps.sh)"
  exit 77
fi
work=$build/browser-test
mkdir -p "$work" "$build/browser"
cp "$src/tests/browser/package.json" "$src/tests/browser/$1" "$work/"
# node_modules/.package-lock.json is written last by a finished install (an interrupted one
# is redone); ctest runs the browser tests one at a time (RESOURCE_LOCK browser-test).
if [ ! -f "$work/node_modules/.package-lock.json" ] || [ ! -d "$work/node_modules/puppeteer-core" ]; then
  rm -rf "$work/node_modules"
  (cd "$work" && timeout 300 npm install --no-audit --no-fund --silent) || {
    echo "browser test: npm install failed"; exit 1; }
fi
