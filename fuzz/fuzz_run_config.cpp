// Run configs (configs/runs/*.textproto): never crash; an accepted config has every default
// filled in, and its saved text reads back to the same config.
#include <string>

#include "fuzz/fuzz_common.h"
#include "train/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const RunConfig c = parse_run_config(text, "fuzz.textproto");
    if (!c.selfplay().search().has_simulations() || !c.trainer().has_batch_size() ||
        !c.network().has_channels())
      fuzz::broken("a default was not filled in");
    if (parse_run_config(run_config_text(c), "again").SerializeAsString() != c.SerializeAsString())
      fuzz::broken("config text round trip");
  } catch (const ConfigError&) {
  }
  return 0;
}
