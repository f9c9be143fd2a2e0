#include "serve/backends.h"

#include "engine/registry.h"

namespace pincer::serve {

std::vector<std::shared_ptr<Analyzer>> make_analyzers(const BackendOptions& o) {
  if (o.rules.empty()) throw std::invalid_argument("give at least one --rules");
  if (!o.models.empty() && o.models.size() != o.rules.size()) {
    throw std::invalid_argument("give one --model per --rules (" + std::to_string(o.rules.size()) +
                                " rulesets, " + std::to_string(o.models.size()) + " models)");
  }
  if (o.models.empty() && o.player.empty()) {
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
    if (o.models.empty()) {
      out.push_back(make_player_analyzer(game, o.player, o.seed));
    } else {
      MctsAnalyzerOptions mo;
      mo.default_visits = o.default_visits;
      mo.description = "model " + o.models[i];
      LoadedModel model = load_model_evaluator(game, o.models[i], o.model);
      mo.predicts_points = model.predicts_points;
      out.push_back(make_mcts_analyzer(game, std::move(model.evaluator), mo));
    }
  }
  return out;
}

}  // namespace pincer::serve
