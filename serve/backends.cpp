#include "serve/backends.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "engine/registry.h"

namespace pincer::serve {
namespace {

// An analyser described otherwise (why a classical player stands in for a model).
class DescribedAnalyzer : public Analyzer {
 public:
  DescribedAnalyzer(std::shared_ptr<Analyzer> inner, std::string description)
      : inner_(std::move(inner)), description_(std::move(description)) {}
  const GamePtr& game() const override { return inner_->game(); }
  std::string description() const override { return description_; }
  Json analyze(const State& state, const TurnRequest& request) override {
    return inner_->analyze(state, request);
  }
  void clear_cache() override { inner_->clear_cache(); }

 private:
  std::shared_ptr<Analyzer> inner_;
  std::string description_;
};

}  // namespace

std::shared_ptr<Analyzer> make_model_analyzer(const GamePtr& game, const std::string& path,
                                              const BackendOptions& o) {
  MctsAnalyzerOptions mo;
  mo.default_visits = o.default_visits;
  mo.description = "model " + path;
  LoadedModel model = load_model_evaluator(game, path, o.model);
  mo.predicts_points = model.predicts_points;
  return make_mcts_analyzer(game, std::move(model.evaluator), mo);
}

std::vector<std::shared_ptr<Analyzer>> make_analyzers(const BackendOptions& o) {
  if (o.rules.empty()) throw std::invalid_argument("give at least one --rules");
  if (!o.models.empty() && o.models.size() != o.rules.size()) {
    throw std::invalid_argument("give one --model per --rules (" + std::to_string(o.rules.size()) +
                                " rulesets, " + std::to_string(o.models.size()) + " models)");
  }
  const bool every_model = !o.models.empty() && std::find(o.models.begin(), o.models.end(),
                                                          std::string()) == o.models.end();
  if (!every_model && o.player.empty()) {
    throw std::invalid_argument("give --model PATH (per --rules) or --player SPEC");
  }
  std::vector<std::shared_ptr<Analyzer>> out;
  for (size_t i = 0; i < o.rules.size(); ++i) {
    GamePtr game = load_game(o.rules[i]);
    for (const auto& a : out) {
      if (a->game()->fingerprint() == game->fingerprint()) {
        throw std::invalid_argument("ruleset \"" + o.rules[i] + "\" is given twice");
      }
    }
    const std::string model = o.models.empty() ? "" : o.models[i];
    std::string why = "no model shipped";
    if (!model.empty()) {
      try {
        out.push_back(make_model_analyzer(game, model, o));
        continue;
      } catch (const std::exception& e) {
        if (!o.models_optional) throw;
        spdlog::warn("{}: model {} does not load ({}); {} plays instead", o.rules[i], model,
                     e.what(), o.player);
        why = "the model " + model + " does not load";
      }
    }
    std::shared_ptr<Analyzer> player = make_player_analyzer(game, o.player, o.seed);
    if (o.models_optional) {
      player = std::make_shared<DescribedAnalyzer>(player, o.player + " (" + why + ")");
    }
    out.push_back(player);
  }
  return out;
}

}  // namespace pincer::serve
