// The network config's defaults and checks, and the checks of model metadata read from a file:
// torch-free, so that config readers and their fuzz targets need no LibTorch.
#include <string>

#include "nn/model.h"

namespace pincer {

namespace {

void check_range(const std::string& field, int64_t v, int64_t lo, int64_t hi) {
  if (v < lo || v > hi) {
    throw ModelError(field + " = " + std::to_string(v) + " is out of range [" + std::to_string(lo) +
                     ", " + std::to_string(hi) + "]");
  }
}

void check_network_config(const NetworkConfig& c) {
  check_range("network.blocks", c.blocks(), 1, 80);
  check_range("network.channels", c.channels(), 1, 1024);
  check_range("network.policy_channels", c.policy_channels(), 1, 256);
  check_range("network.value_channels", c.value_channels(), 1, 256);
  check_range("network.value_hidden", c.value_hidden(), 1, 4096);
}

}  // namespace

NetworkConfig complete_network_config(NetworkConfig c) {
  if (!c.has_blocks()) c.set_blocks(4);
  if (!c.has_channels()) c.set_channels(64);
  if (!c.has_policy_channels()) c.set_policy_channels(4);
  if (!c.has_value_channels()) c.set_value_channels(2);
  if (!c.has_value_hidden()) c.set_value_hidden(64);
  check_network_config(c);
  return c;
}

void Model::check_metadata(const ModelMetadata& meta, const std::string& origin) {
  try {
    check_network_config(meta.network());
    check_range("input_channels", meta.input_channels(), 1, 4096);
    check_range("input_height", meta.input_height(), 1, 1024);
    check_range("input_width", meta.input_width(), 1, 1024);
    check_range("num_actions", meta.num_actions(), 1, 1 << 24);
  } catch (const ModelError& e) {
    throw ModelError(origin + ": damaged model metadata: " + e.what());
  }
}

}  // namespace pincer
