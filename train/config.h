// Run configurations (proto/run_config.proto) in protobuf text format: reading, defaults and
// checks. Every refusal names the file and the field.
#pragma once

#include <stdexcept>
#include <string>

#include "proto/run_config.pb.h"

namespace pincer {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses a run config file (unknown fields and syntax errors are refused with line and column),
// fills defaults and checks every value. Throws ConfigError.
RunConfig load_run_config(const std::string& path);
// The same for text already read; `origin` names it in errors.
RunConfig parse_run_config(const std::string& text, const std::string& origin);
// Fills unset fields with their defaults and checks ranges; throws ConfigError naming the field.
RunConfig complete_run_config(RunConfig config, const std::string& origin);
// A search config with its defaults filled in and checked (the one place those defaults live;
// the `net` player uses it too). Throws ConfigError naming `origin`.
SearchConfig complete_search_config(SearchConfig search, const std::string& origin);
// Text format of a config (what the run directory keeps as config.textproto).
std::string run_config_text(const RunConfig& config);

// Fills unset warm-start fields with their defaults (batch from the trainer's); throws
// std::invalid_argument naming a field out of range. complete_run_config calls it.
WarmStartConfig complete_warm_start_config(WarmStartConfig config, int trainer_batch);

}  // namespace pincer
