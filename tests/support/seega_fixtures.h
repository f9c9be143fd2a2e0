// Shared helpers for the Seega tests: shipped rulesets and their variants, positions from text,
// legal moves as sorted text.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/registry.h"
#include "engine/seega/seega_game.h"

namespace pincer::seega::testing {

// The rules message of a shipped ruleset ("seega-5x5", "seega-7x7").
inline SeegaRuleset shipped_ruleset(const std::string& name) {
  const GamePtr game = load_game(name);
  SeegaRuleset out;
  out.CopyFrom(game->ruleset());
  return out;
}

// A shipped ruleset with some rules changed.
inline std::shared_ptr<const SeegaGame> variant(
    const std::string& name, const std::function<void(SeegaRules&)>& change = {}) {
  SeegaRuleset r = shipped_ruleset(name);
  if (change) change(*r.mutable_rules());
  return std::make_shared<const SeegaGame>(std::move(r));
}

inline const Position& position_of(const State& s) {
  return static_cast<const SeegaState&>(s).position();
}

// Legal moves of `s` in long form, sorted.
inline std::vector<std::string> legal_texts(const State& s) {
  std::vector<Action> actions;
  s.legal_actions(actions);
  std::vector<std::string> out;
  for (Action a : actions) out.push_back(s.game().action_text(s, a, false));
  std::sort(out.begin(), out.end());
  return out;
}

// Plays `moves` (text) from `position` ("" for the start).
inline std::unique_ptr<State> play(const Game& game, const std::string& position,
                                   const std::vector<std::string>& moves = {}) {
  std::unique_ptr<State> s = position.empty() ? game.initial_state() : game.parse_state(position);
  for (const std::string& m : moves) s->apply(game.parse_action(*s, m));
  return s;
}

}  // namespace pincer::seega::testing
