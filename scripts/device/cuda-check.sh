#!/usr/bin/env bash
# Builds pincer on a lent GPU machine against the LibTorch of its PyTorch wheel (CUDA), with the
# other libraries carried as Debian bookworm .debs, then measures `pincer bench nn` on cuda
# (float32 and bfloat16), `pincer bench search` and a short `pincer train` with device "cuda".
#
# Here, once (the .debs travel with the working tree; .device/ is in .git/info/exclude):
#   mkdir -p .device/debs && (cd .device/debs && apt-get download $(grep -v '^#' ../../scripts/device/debs.txt))
# There (device tool, repo root, carry [".device"]):  bash scripts/device/cuda-check.sh
# Logs and numbers go to $OUT (at most 8 files come back): summary.txt, env.txt, configure.log,
# build.log, bench-nn.txt, bench-search.txt, train.log, metrics.csv.
# The sources: .device/src.tar.gz when present (`git archive HEAD | gzip -1 >.device/src.tar.gz`:
# the last commit, whatever is being edited in the working tree), else the working tree.
# CHECK_ONLY=configure stops after the configure step (to test the unpack and configure logic on
# a machine without a GPU, with TORCH_CMAKE_DIR naming a Torch CMake folder there).
set -uo pipefail
ROOT=$(pwd)
OUT=${OUT:-/tmp/cuda-check-out}
mkdir -p "$OUT"
DEBS=${DEBS:-$ROOT/.device/debs}
P=${PINCER_DEPS:-/tmp/pincer-deps}
B=${PINCER_BUILD:-/tmp/pincer-build-cuda}
BUDGET=${BUDGET_S:-440} # no new phase starts after this many seconds
T0=$SECONDS
ARCH_LIB=$P/usr/lib/x86_64-linux-gnu
SRC=$ROOT
if [ -f "$ROOT/.device/src.tar.gz" ]; then
  SRC=/tmp/pincer-src
  rm -rf "$SRC" && mkdir -p "$SRC" && tar -xzf "$ROOT/.device/src.tar.gz" -C "$SRC"
fi

log() { echo "[$(date -u +%T) +$((SECONDS - T0))s] $*" | tee -a "$OUT/summary.txt"; }
left() { echo $((BUDGET - (SECONDS - T0))); }
have_time() {
  if [ "$(left)" -lt "$1" ]; then
    log "SKIP $2: $(left) s left of the budget, it needs about $1 s"
    return 1
  fi
}

# --- 1. what the machine has ----------------------------------------------------------------
{
  echo "== uname / os"; uname -a; grep PRETTY_NAME /etc/os-release; nproc; free -g | head -2
  echo "== nvidia-smi"; nvidia-smi 2>&1 | head -20
  echo "== tools"
  for t in g++ c++ gcc cmake ninja dpkg-deb pkg-config pkgconf nvcc ccache; do
    printf '%-10s %s\n' "$t" "$(command -v $t || echo MISSING)"
  done
  g++ --version 2>&1 | head -1; cmake --version 2>&1 | head -1; ninja --version 2>&1
  ls -d /usr/local/cuda* 2>&1
  echo "== libs the carried .so files need from the system"
  ldconfig -p | grep -E 'libssl.so.3|libcrypto.so.3|libz.so.1|libbz2.so.1.0|libbrotli' 2>&1
  echo "== torch"
  python3 - <<'EOF' 2>&1
import os, torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())
print("cxx11 abi", torch._C._GLIBCXX_USE_CXX11_ABI)
print("cmake_prefix_path", torch.utils.cmake_prefix_path)
d = os.path.dirname(torch.__file__)
print("dir", d)
inc = os.path.join(d, "include")
print("include:", " ".join(sorted(os.listdir(inc))))
print("lib:", " ".join(sorted(f for f in os.listdir(os.path.join(d, "lib")) if f.endswith(".so"))))
if torch.cuda.is_available():
    print("gpu", torch.cuda.get_device_name(0))
EOF
} >"$OUT/env.txt" 2>&1
log "sources: $SRC $(cat "$ROOT/.device/src.commit" 2>/dev/null)"
log "env written (g++: $(command -v g++ || echo none), cmake: $(cmake --version 2>/dev/null | head -1))"
if ! command -v g++ >/dev/null && ! command -v c++ >/dev/null; then
  log "FAIL: no C++ compiler on this machine"
  exit 1
fi

TORCH_INFO=$(python3 -c 'import os,torch;print(torch.utils.cmake_prefix_path, os.path.dirname(torch.__file__), int(torch._C._GLIBCXX_USE_CXX11_ABI), torch.__version__)' 2>/dev/null)
read -r TORCH_PREFIX TORCH_ROOT TORCH_ABI TORCH_VERSION <<<"$TORCH_INFO"
TORCH_CMAKE_DIR=${TORCH_CMAKE_DIR:-${TORCH_PREFIX:+$TORCH_PREFIX/Torch}}
log "torch $TORCH_VERSION at $TORCH_ROOT, cxx11 abi $TORCH_ABI, cmake dir $TORCH_CMAKE_DIR"
if [ "${TORCH_ABI:-1}" != "1" ]; then
  log "WARNING: torch uses the old C++ ABI; Debian's libraries use the C++11 ABI"
fi

# --- 2. unpack the .debs into a prefix (never into /) ------------------------------------------
extract_deb() { # dpkg-deb where there is one, else ar + tar through Python
  if command -v dpkg-deb >/dev/null; then
    dpkg-deb -x "$1" "$P"
  else
    python3 - "$1" "$P" <<'EOF'
import io, sys, tarfile
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"!<arch>\n"
pos = 8
while pos < len(data):
    name = data[pos:pos + 16].decode().strip().rstrip("/")
    size = int(data[pos + 48:pos + 58].decode().strip())
    body = data[pos + 60:pos + 60 + size]
    if name.startswith("data.tar"):
        tarfile.open(fileobj=io.BytesIO(body)).extractall(sys.argv[2])
    pos += 60 + size + (size & 1)
EOF
  fi
}
rm -rf "$P"
mkdir -p "$P"
n=0
for f in "$DEBS"/*.deb; do
  extract_deb "$f" || { log "FAIL: could not unpack $f"; exit 1; }
  n=$((n + 1))
done
# The .pc files name /usr: point them at the prefix. Their Requires.private (cpp-httplib's
# openssl, zlib, brotli: .pc files this machine may lack) matter only to static links: dropped.
for pc in "$ARCH_LIB"/pkgconfig/*.pc "$P"/usr/share/pkgconfig/*.pc; do
  [ -f "$pc" ] && sed -i -e "s#=/usr/#=$P/usr/#g" -e "s#=/usr\$#=$P/usr#" -e '/^Requires.private:/d' "$pc"
done
# Torch's own Gloo headers, if the wheel has them, match its ProcessGroupGloo.hpp better.
GLOO_INCLUDE=$P/usr/include
if [ -n "${TORCH_ROOT:-}" ] && [ -f "$TORCH_ROOT/include/gloo/algorithm.h" ]; then
  rm -rf "$P/usr/include/gloo"
  GLOO_INCLUDE=$TORCH_ROOT/include
fi
export LD_LIBRARY_PATH=$ARCH_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$PATH:$P/usr/bin
export PKG_CONFIG_PATH=$ARCH_LIB/pkgconfig:$P/usr/share/pkgconfig
PKG_CONFIG=$(command -v pkg-config || echo "$P/usr/bin/pkgconf")
[ -d /usr/local/cuda/bin ] && export PATH=$PATH:/usr/local/cuda/bin
log "unpacked $n .debs into $P; pkg-config: $PKG_CONFIG; gloo headers: $GLOO_INCLUDE"

# --- 3. configure: the wheel's TorchConfig first, the stand-in if that fails ------------------
configure() { # $1: Torch_DIR
  rm -rf "$B"
  cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPINCER_TESTS=OFF \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 "-DCMAKE_CXX_FLAGS=-include cstdint -isystem $P/usr/include/x86_64-linux-gnu" \
    "-DCMAKE_PREFIX_PATH=$P/usr" "-DTorch_DIR=$1" \
    "-DProtobuf_PROTOC_EXECUTABLE=$P/usr/bin/protoc" "-DPINCER_GLOO_INCLUDE=$GLOO_INCLUDE" \
    "-DPKG_CONFIG_EXECUTABLE=$PKG_CONFIG" \
    "-DPINCER_TORCH_ROOT=${TORCH_ROOT:-}" "-DPINCER_TORCH_ABI=${TORCH_ABI:-1}" \
    "-DPINCER_TORCH_VERSION=${TORCH_VERSION:-}" >>"$OUT/configure.log" 2>&1 &&
    grep -q 'LibTorch .* found; building nn/' "$OUT/configure.log"
}
: >"$OUT/configure.log"
if configure "$TORCH_CMAKE_DIR"; then
  log "configured with the wheel's TorchConfig ($TORCH_CMAKE_DIR)"
else
  log "the wheel's TorchConfig did not configure (configure.log); trying scripts/device/faketorch"
  echo "======== faketorch ========" >>"$OUT/configure.log"
  if configure "$ROOT/scripts/device/faketorch"; then
    log "configured with scripts/device/faketorch"
  else
    log "FAIL: configure (configure.log)"
    tail -30 "$OUT/configure.log"
    exit 1
  fi
fi
grep -E 'LibTorch|Protobuf|Found|faketorch|Caffe2|CUDA' "$OUT/configure.log" | tail -25
if [ "${CHECK_ONLY:-}" = configure ]; then
  log "CHECK_ONLY=configure: stopping"
  exit 0
fi

# --- 4. build the executable and the torch module --------------------------------------------
have_time 120 build || exit 1
log "building pincer and pincer_torch (-j$(nproc))"
if ! cmake --build "$B" -j"$(nproc)" --target pincer pincer_torch -- -k 0 >"$OUT/build.log" 2>&1; then
  log "FAIL: build (build.log); first errors:"
  grep -E 'error|undefined reference|FAILED' "$OUT/build.log" | head -40 | tee -a "$OUT/summary.txt"
  exit 1
fi
PINCER=$B/cli/pincer
log "built: $(ls -la "$PINCER" "$B"/cli/pincer-torch.so 2>&1 | awk '{print $5, $9}' | tr '\n' ' ')"

# --- 5. measurements (from the sources' folder: configs name other files relative to it) -------
cd "$SRC" || exit 1
CFG=/tmp/seize-cuda.textproto
sed -e 's/^device: .*/device: "cuda"/' configs/runs/seize.textproto >"$CFG"
# Self-play sized for 16 cores and a GPU: many games at once, big batches, no warm start.
CFG_BIG=/tmp/seize-cuda-16.textproto
sed -e 's/^device: .*/device: "cuda"/' \
  -e 's/^inference { max_batch: 128/inference { max_batch: 1024/' \
  -e 's/^  parallel_games: 64/  parallel_games: 1024/' \
  -e 's/^  threads: 2$/  threads: 14/' \
  -e '/^warm_start {/,/^}/ s/^  enabled: true/  enabled: false/' \
  -e '/^anchor {/,/^}/d' \
  configs/runs/seize.textproto >"$CFG_BIG"
diff configs/runs/seize.textproto "$CFG_BIG" >>"$OUT/summary.txt"

if have_time 60 "bench nn"; then
  for prec in float32 bfloat16; do
    log "bench nn --precision $prec"
    timeout 120 "$PINCER" bench nn --config "$CFG" --precision "$prec" \
      --batch 1,8,32,128,256,512,1024,4096 --seconds 1 >>"$OUT/bench-nn.txt" 2>&1 ||
      log "bench nn $prec exited $?"
  done
  cat "$OUT/bench-nn.txt"
fi

if have_time 40 "bench search"; then
  log "bench search (the shipped config on cuda: 64 games, 2 threads)"
  timeout 60 "$PINCER" bench search --config "$CFG" --seconds 15 >>"$OUT/bench-search.txt" 2>&1 ||
    log "bench search exited $?"
  cat "$OUT/bench-search.txt"
fi

TRAIN_S=$(($(left) - 30))
[ "$TRAIN_S" -gt 150 ] && TRAIN_S=150
if [ "$TRAIN_S" -ge 60 ]; then
  MIN=$(python3 -c "print(round($TRAIN_S / 60 - 0.1, 2))")
  log "train --minutes $MIN with $CFG_BIG (warm start off)"
  timeout $((TRAIN_S + 25)) "$PINCER" train --config "$CFG_BIG" --dir /tmp/run-cuda --minutes "$MIN" \
    --quiet >"$OUT/train.log" 2>&1 || log "train exited $?"
  cp /tmp/run-cuda/metrics.csv "$OUT/metrics.csv" 2>/dev/null
  tail -15 "$OUT/train.log"
  echo "== metrics.csv"; cat "$OUT/metrics.csv" 2>/dev/null
  ls /tmp/run-cuda/records 2>/dev/null | wc -l | xargs echo "record chunks:"
else
  log "SKIP train: $(left) s left"
fi
log "done"
