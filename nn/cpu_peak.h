// The arithmetic peak of one core, measured: a microbenchmark of independent multiply-accumulate
// chains on the calling thread, so that `pincer bench nn` can say what share of the core its
// GFLOP/s are (issue 44; docs/experiments/2026-12-07-bench-nn-self-measured-peak.md).
//
// bfloat16: VDPBF16PS (_mm512_dpbf16_ps, 64 FLOP an instruction: 16 lanes x 2 products, each a
// multiply and an add), the instruction oneDNN's bfloat16 convolutions run on CPUs with
// AVX-512 BF16. float32: VFMADD on zmm (32 FLOP) with AVX-512, else on ymm (16 FLOP) with AVX2
// and FMA. Each kernel is compiled for its instruction set alone (target attributes) and run only
// where the CPU says it has it, so the rest of the build needs no -m flags. Torch-free.
#pragma once

namespace pincer {

enum class PeakKernel { kNone, kAvx512Bf16, kAvx512Fma, kAvx2Fma };

// The instruction sets the kernels need, as this CPU reports them (cpuid, and the OS saving the
// registers).
struct CpuVectorFeatures {
  bool avx512bf16 = false;
  bool avx512f = false;
  bool avx2_fma = false;
};
CpuVectorFeatures cpu_vector_features();

// The kernel that measures `bfloat16`'s (else float32's) peak on a CPU with `features`: kNone
// where it lacks the instructions (bfloat16 without AVX-512 BF16: oneDNN then converts to
// float32 or uses AMX, neither of which this measures).
PeakKernel peak_kernel(bool bfloat16, const CpuVectorFeatures& features);
// "avx512_bf16 VDPBF16PS", "avx512 FMA", "avx2 FMA" or "none".
const char* peak_kernel_name(PeakKernel kernel);

struct CorePeak {
  PeakKernel kernel = PeakKernel::kNone;
  double gflops = 0;  // 0: unknown (no kernel for this precision on this CPU)
};

// Runs `kernel` on the calling thread for about `seconds` of its CPU time in all (the best of
// three runs: the first also brings the core up to its clock) and returns its GFLOP per second
// of the thread's CPU time; 0 for kNone, or for a kernel that this CPU lacks (checked again
// here, never executed then).
double measure_peak_gflops(PeakKernel kernel, double seconds = 0.15);

// peak_kernel for this CPU, measured once per process and precision (later calls return the
// first measurement).
CorePeak core_peak(bool bfloat16);

}  // namespace pincer
