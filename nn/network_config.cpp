// The network config's defaults and checks, and the checks of model metadata read from a file:
// torch-free, so that config readers and their fuzz targets need no LibTorch.
#include <atomic>
#include <fstream>
#include <sstream>
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
  if (c.has_policy_head() && c.policy_head() != "dense" && c.policy_head() != "conv") {
    throw ModelError("network.policy_head = \"" + c.policy_head() +
                     "\" is not \"dense\" or \"conv\"");
  }
}

bool read_cpu_has_bf16() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      if (w == "avx512_bf16" || w == "amx_bf16") return true;
    }
    return false;
  }
  return false;
}

std::atomic<int>& default_precision_slot() {
  static std::atomic<int> slot{static_cast<int>(Precision::kFloat32)};
  return slot;
}

}  // namespace

bool cpu_has_bf16() {
  static const bool has = read_cpu_has_bf16();
  return has;
}

bool valid_precision(const std::string& text) {
  return text.empty() || text == "auto" || text == "float32" || text == "bfloat16";
}

Precision parse_precision(const std::string& text) {
  if (text == "float32") return Precision::kFloat32;
  if (text == "bfloat16") return Precision::kBFloat16;
  if (text == "auto" || text.empty())
    return cpu_has_bf16() ? Precision::kBFloat16 : Precision::kFloat32;
  throw ModelError("unknown precision \"" + text +
                   "\" (expected \"auto\", \"float32\" or \"bfloat16\")");
}

const char* precision_name(Precision p) {
  return p == Precision::kBFloat16 ? "bfloat16" : "float32";
}

Precision default_precision() { return static_cast<Precision>(default_precision_slot().load()); }

void set_default_precision(Precision p) { default_precision_slot() = static_cast<int>(p); }

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
    const bool conv = meta.network().policy_head() == "conv";
    check_range("policy_planes", meta.policy_planes(), conv ? 1 : 0, conv ? 4096 : 0);
  } catch (const ModelError& e) {
    throw ModelError(origin + ": damaged model metadata: " + e.what());
  }
}

}  // namespace pincer
