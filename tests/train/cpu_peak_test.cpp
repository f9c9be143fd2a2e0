// nn/cpu_peak.h: the kernel chosen for each precision and feature set, a peak that is positive
// and finite where the CPU has the kernel's instructions, and 0 ("unknown") where it has not.
#include "nn/cpu_peak.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pincer::testing {
namespace {

TEST(CorePeak, EachPrecisionPicksTheKernelItsInstructionsAllow) {
  CpuVectorFeatures none;
  EXPECT_EQ(peak_kernel(true, none), PeakKernel::kNone);
  EXPECT_EQ(peak_kernel(false, none), PeakKernel::kNone);

  CpuVectorFeatures avx2;
  avx2.avx2_fma = true;
  EXPECT_EQ(peak_kernel(true, avx2), PeakKernel::kNone);
  EXPECT_EQ(peak_kernel(false, avx2), PeakKernel::kAvx2Fma);

  CpuVectorFeatures avx512 = avx2;
  avx512.avx512f = true;
  EXPECT_EQ(peak_kernel(true, avx512), PeakKernel::kNone);
  EXPECT_EQ(peak_kernel(false, avx512), PeakKernel::kAvx512Fma);

  CpuVectorFeatures bf16 = avx512;
  bf16.avx512bf16 = true;
  EXPECT_EQ(peak_kernel(true, bf16), PeakKernel::kAvx512Bf16);
  EXPECT_EQ(peak_kernel(false, bf16), PeakKernel::kAvx512Fma);

  EXPECT_STREQ(peak_kernel_name(PeakKernel::kNone), "none");
  EXPECT_STREQ(peak_kernel_name(PeakKernel::kAvx512Bf16), "avx512_bf16 VDPBF16PS");
}

TEST(CorePeak, MeasuredWhereTheCpuHasTheKernelAndZeroWhereNot) {
  EXPECT_EQ(measure_peak_gflops(PeakKernel::kNone, 0.01), 0);
  const CpuVectorFeatures f = cpu_vector_features();
  const struct {
    PeakKernel kernel;
    bool has;
  } kernels[] = {{PeakKernel::kAvx512Bf16, f.avx512f && f.avx512bf16},
                 {PeakKernel::kAvx512Fma, f.avx512f},
                 {PeakKernel::kAvx2Fma, f.avx2_fma}};
  for (const auto& k : kernels) {
    // A kernel this CPU lacks is never run (it would be an illegal instruction): 0.
    const double gflops = measure_peak_gflops(k.kernel, 0.01);
    SCOPED_TRACE(peak_kernel_name(k.kernel));
    if (!k.has) {
      EXPECT_EQ(gflops, 0);
      continue;
    }
    EXPECT_TRUE(std::isfinite(gflops));
    EXPECT_GT(gflops, 0.1);
    EXPECT_LT(gflops, 1e5);  // one core, not a cluster
  }
}

TEST(CorePeak, IsMeasuredOncePerPrecision) {
  for (const bool bf16 : {false, true}) {
    const CorePeak first = core_peak(bf16);
    const CorePeak again = core_peak(bf16);
    EXPECT_EQ(first.kernel, peak_kernel(bf16, cpu_vector_features()));
    EXPECT_EQ(first.kernel, again.kernel);
    EXPECT_EQ(first.gflops, again.gflops);
    EXPECT_EQ(first.gflops > 0, first.kernel != PeakKernel::kNone);
  }
}

}  // namespace
}  // namespace pincer::testing
