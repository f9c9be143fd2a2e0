// The CLI infers in the fastest precision the CPU supports (bfloat16 with AVX-512 BF16 or AMX)
// unless a command or run config says otherwise; the library's default stays float32.
#include "nn/model.h"

namespace pincer::cli {
namespace {

const bool kAutoPrecision = [] {
  set_default_precision(parse_precision("auto"));
  return true;
}();

}  // namespace
}  // namespace pincer::cli
