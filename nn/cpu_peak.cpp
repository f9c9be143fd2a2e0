#include "nn/cpu_peak.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PINCER_PEAK_X86 1
#endif

#include <ctime>
#include <mutex>

namespace pincer {

namespace {

// 24 independent accumulators: enough to hide the latency of two multiply-accumulates a cycle
// (12 gave about 8% less on Zen 5; docs/experiments/2026-12-07-bench-nn-against-measured-peak.md),
// few enough, with the two operands, for the 32 vector registers. The empty asm makes the
// operand look changed every iteration, so the compiler cannot hoist or fold the loop.
constexpr int kChains = 24;

// The kernels keep their accumulators in registers only when optimized: a debug or sanitizer
// build (-O0) would measure loads and stores instead.
#if defined(__GNUC__) && !defined(__clang__)
#define PINCER_PEAK_OPTIMIZE __attribute__((optimize("O2", "align-loops=64")))
#else
#define PINCER_PEAK_OPTIMIZE
#endif

#ifdef PINCER_PEAK_X86
// The sum of every lane of the accumulators (so that the loop's results are used).
__attribute__((target("avx512f"))) float sum_lanes(const __m512 (&acc)[kChains]) {
  __m512 sum = _mm512_setzero_ps();
  for (const auto& a : acc) sum = _mm512_add_ps(sum, a);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  float total = 0;
  for (float f : lanes) total += f;
  return total;
}

PINCER_PEAK_OPTIMIZE __attribute__((target("avx512f,avx512bf16"))) float run_avx512_bf16(
    long iters) {
  __m512 acc[kChains];
  for (auto& a : acc) a = _mm512_setzero_ps();
  __m512bh x = (__m512bh)_mm512_set1_epi16(0x3f80);  // bfloat16 1.0
  const __m512bh y = x;
  for (long k = 0; k < iters; ++k) {
#pragma GCC unroll 24
    for (int i = 0; i < kChains; ++i) acc[i] = _mm512_dpbf16_ps(acc[i], x, y);
    asm volatile("" : "+v"(x));
  }
  return sum_lanes(acc);
}

PINCER_PEAK_OPTIMIZE __attribute__((target("avx512f"))) float run_avx512_fma(long iters) {
  __m512 acc[kChains];
  for (auto& a : acc) a = _mm512_setzero_ps();
  __m512 x = _mm512_set1_ps(1.0f);
  const __m512 y = x;
  for (long k = 0; k < iters; ++k) {
#pragma GCC unroll 24
    for (int i = 0; i < kChains; ++i) acc[i] = _mm512_fmadd_ps(x, y, acc[i]);
    asm volatile("" : "+v"(x));
  }
  return sum_lanes(acc);
}

// Only 16 ymm registers without AVX-512: 12 chains and the two operands.
constexpr int kAvx2Chains = 12;

PINCER_PEAK_OPTIMIZE __attribute__((target("avx2,fma"))) float run_avx2_fma(long iters) {
  __m256 acc[kAvx2Chains];
  for (auto& a : acc) a = _mm256_setzero_ps();
  __m256 x = _mm256_set1_ps(1.0f);
  const __m256 y = x;
  for (long k = 0; k < iters; ++k) {
#pragma GCC unroll 12
    for (int i = 0; i < kAvx2Chains; ++i) acc[i] = _mm256_fmadd_ps(x, y, acc[i]);
    asm volatile("" : "+x"(x));
  }
  __m256 sum = _mm256_setzero_ps();
  for (const auto& a : acc) sum = _mm256_add_ps(sum, a);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  float total = 0;
  for (float f : lanes) total += f;
  return total;
}

#endif  // PINCER_PEAK_X86

// FLOP of one iteration of the kernel's loop.
double flop_per_iteration(PeakKernel kernel) {
  switch (kernel) {
    case PeakKernel::kAvx512Bf16:
      return kChains * 64.0;
    case PeakKernel::kAvx512Fma:
      return kChains * 32.0;
    case PeakKernel::kAvx2Fma:
      return kAvx2Chains * 16.0;
    case PeakKernel::kNone:
      break;
  }
  return 0;
}

float run_kernel(PeakKernel kernel, long iters) {
#ifndef PINCER_PEAK_X86
  (void)iters;  // no kernel elsewhere: cpu_vector_features() reports none
#else
  switch (kernel) {
    case PeakKernel::kAvx512Bf16:
      return run_avx512_bf16(iters);
    case PeakKernel::kAvx512Fma:
      return run_avx512_fma(iters);
    case PeakKernel::kAvx2Fma:
      return run_avx2_fma(iters);
    case PeakKernel::kNone:
      break;
  }
#endif
  (void)kernel;
  return 0;
}

bool cpu_has(PeakKernel kernel, const CpuVectorFeatures& f) {
  switch (kernel) {
    case PeakKernel::kAvx512Bf16:
      return f.avx512f && f.avx512bf16;
    case PeakKernel::kAvx512Fma:
      return f.avx512f;
    case PeakKernel::kAvx2Fma:
      return f.avx2_fma;
    case PeakKernel::kNone:
      break;
  }
  return false;
}

// Seconds of CPU time of the calling thread: the peak per CPU-second, as `pincer bench nn`'s
// GFLOP/cpu-s, so that time the thread spends descheduled on a busy machine does not count.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

}  // namespace

CpuVectorFeatures cpu_vector_features() {
  CpuVectorFeatures f;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  // __builtin_cpu_supports answers "no" to AVX/AVX-512 when the OS does not save their registers.
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512bf16 = __builtin_cpu_supports("avx512bf16");
  f.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  return f;
}

PeakKernel peak_kernel(bool bfloat16, const CpuVectorFeatures& f) {
  if (bfloat16)
    return cpu_has(PeakKernel::kAvx512Bf16, f) ? PeakKernel::kAvx512Bf16 : PeakKernel::kNone;
  if (cpu_has(PeakKernel::kAvx512Fma, f)) return PeakKernel::kAvx512Fma;
  if (cpu_has(PeakKernel::kAvx2Fma, f)) return PeakKernel::kAvx2Fma;
  return PeakKernel::kNone;
}

const char* peak_kernel_name(PeakKernel kernel) {
  switch (kernel) {
    case PeakKernel::kAvx512Bf16:
      return "avx512_bf16 VDPBF16PS";
    case PeakKernel::kAvx512Fma:
      return "avx512 FMA";
    case PeakKernel::kAvx2Fma:
      return "avx2 FMA";
    case PeakKernel::kNone:
      break;
  }
  return "none";
}

double measure_peak_gflops(PeakKernel kernel, double seconds) {
  if (kernel == PeakKernel::kNone || !cpu_has(kernel, cpu_vector_features())) return 0;
  // Chunks of about 0.1 ms at a few GHz; the first run also brings the core up to its clock.
  constexpr long kChunk = 1 << 12;
  constexpr int kRuns = 3;
  const double run_seconds = seconds / kRuns;
  double best = 0;
  volatile float sink = 0;
  for (int r = 0; r < kRuns; ++r) {
    long iters = 0;
    double elapsed = 0;
    const double t0 = thread_cpu_s();
    do {
      sink = sink + run_kernel(kernel, kChunk);
      iters += kChunk;
      elapsed = thread_cpu_s() - t0;
    } while (elapsed < run_seconds);
    const double gflops = iters * flop_per_iteration(kernel) / elapsed / 1e9;
    if (gflops > best) best = gflops;
  }
  return best;
}

CorePeak core_peak(bool bfloat16) {
  static std::mutex mutex;
  static CorePeak measured[2];
  static bool done[2] = {false, false};
  std::lock_guard<std::mutex> lock(mutex);
  const int i = bfloat16 ? 1 : 0;
  if (!done[i]) {
    measured[i].kernel = peak_kernel(bfloat16, cpu_vector_features());
    measured[i].gflops = measure_peak_gflops(measured[i].kernel);
    done[i] = true;
  }
  return measured[i];
}

}  // namespace pincer
