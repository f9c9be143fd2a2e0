// The torch commands keep freed memory in the process instead of handing it back to the kernel.
// Training and inference allocate and free the same few megabyte-sized tensors every step; with
// glibc's defaults many of them are fresh mmap()s or trimmed heap, and the kernel zeroes every page
// again on first touch (measured: 11% of a training step's time in page faults; see
// docs/experiments/2026-12-01-training-speed.md).
#include <malloc.h>

namespace pincer::cli {
namespace {

const bool kKeepFreedMemory = [] {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // blocks below 32 MiB come from the heap (glibc's maximum)
  mallopt(M_TRIM_THRESHOLD, 1 << 30);   // and the heap's free top is kept up to 1 GiB
  mallopt(M_TOP_PAD, 64 << 20);         // grown 64 MiB at a time
  return true;
}();

}  // namespace
}  // namespace pincer::cli
