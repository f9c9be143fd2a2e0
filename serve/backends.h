// Builds the analysers of `pincer analyze` and `pincer serve` from their command line: one per
// ruleset, each from a model file (paired with --rules in order) or from one classical player
// spec shared by the rulesets without one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "serve/analyzer.h"
#include "serve/model.h"

namespace pincer::serve {

struct BackendOptions {
  std::vector<std::string> rules;   // ruleset names or files
  std::vector<std::string> models;  // empty, or one per ruleset ("": that ruleset uses player)
  std::string player;               // used when models is empty, and for its "" entries
  // A model that does not load (no torch in this build, a damaged file) is replaced by the
  // player, with a warning, instead of failing (the shipped models, serve/shipped.h); the
  // player's description then says why it plays: "(no model shipped)" or "(the model ... does
  // not load)".
  bool models_optional = false;
  int default_visits = 200;
  ModelOptions model;
  uint64_t seed = 1;
};

// Throws std::invalid_argument / std::runtime_error naming what is wrong.
std::vector<std::shared_ptr<Analyzer>> make_analyzers(const BackendOptions& options);

// The analyser of one model file for `game`; throws std::runtime_error.
std::shared_ptr<Analyzer> make_model_analyzer(const GamePtr& game, const std::string& path,
                                              const BackendOptions& options);

}  // namespace pincer::serve
