// Gate logs (gating.textproto): never crash; an accepted log prints and reads back the same.
#include <google/protobuf/text_format.h>

#include <stdexcept>
#include <string>

#include "fuzz/fuzz_common.h"
#include "store/gate_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const GateLog log = parse_gate_log(text, "fuzz.textproto");
    std::string again;
    google::protobuf::TextFormat::PrintToString(log, &again);
    if (parse_gate_log(again, "again").SerializeAsString() != log.SerializeAsString())
      fuzz::broken("gate log round trip");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
