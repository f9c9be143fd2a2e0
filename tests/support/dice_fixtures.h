// Helpers for the dice tests: rulesets changed in code, legal moves as sorted text.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/dice/dice_game.h"
#include "engine/registry.h"

namespace pincer::dice::testing {

// The shipped ruleset `name` with `change` applied to its rules.
inline std::shared_ptr<const DiceGame> variant(
    const std::string& name, const std::function<void(DiceRules&)>& change = nullptr) {
  const GamePtr base = load_game(name);
  DiceRuleset ruleset = static_cast<const DiceRuleset&>(base->ruleset());
  if (change) change(*ruleset.mutable_rules());
  return std::make_shared<DiceGame>(ruleset);
}

inline std::vector<std::string> legal_texts(const State& s) {
  std::vector<Action> actions;
  s.legal_actions(actions);
  std::vector<std::string> out;
  for (Action a : actions) out.push_back(s.game().action_text(s, a, false));
  std::sort(out.begin(), out.end());
  return out;
}

// The targets of the die on `from` ("d3" -> {"d4"}), sorted.
inline std::vector<std::string> targets(const State& s, const std::string& from) {
  std::vector<std::string> out;
  for (const std::string& m : legal_texts(s))
    if (m.substr(0, m.find('-')) == from) out.push_back(m.substr(m.find('-') + 1));
  return out;
}

// Plays `move` (text) on a copy of `s` and returns it.
inline std::unique_ptr<State> after(const State& s, const std::string& move) {
  std::unique_ptr<State> c = s.clone();
  c->apply(s.game().parse_action(s, move));
  return c;
}

}  // namespace pincer::dice::testing
