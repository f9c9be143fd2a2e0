// Helpers for the analysis engine tests: an engine over classical analysers and a sink that
// collects responses.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/registry.h"
#include "serve/engine.h"

namespace pincer::testing {

class Collector {
 public:
  serve::Sink sink() {
    return [this](const serve::Json& j) {
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(j);
    };
  }
  std::vector<serve::Json> lines() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }
  std::vector<serve::Json> for_id(const serve::Json& id) const {
    std::vector<serve::Json> out;
    for (const auto& j : lines()) {
      if (j.contains("id") && j["id"] == id) out.push_back(j);
    }
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<serve::Json> lines_;
};

inline std::unique_ptr<serve::AnalysisEngine> classical_engine(const std::string& rules,
                                                               const std::string& player,
                                                               int threads = 2) {
  std::vector<std::shared_ptr<serve::Analyzer>> analyzers;
  analyzers.push_back(serve::make_player_analyzer(load_game(rules), player, 7));
  serve::EngineOptions o;
  o.threads = threads;
  o.seed = 7;
  return std::make_unique<serve::AnalysisEngine>(std::move(analyzers), o);
}

}  // namespace pincer::testing
