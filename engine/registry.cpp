#include "engine/registry.h"

#include <map>
#include <mutex>

#include "engine/corners/corners_game.h"
#include "engine/dice/dice_game.h"
#include "engine/seega/seega_game.h"
#include "engine/seize/seize_game.h"
#include "engine/text.h"

namespace pincer {

namespace {

std::map<std::string, GameFactory>& games() {
  // The registry: one line per game.
  static std::map<std::string, GameFactory> registry = {
      {"corners", corners::make_game},
      {"dice", dice::make_game},
      {"seega", seega::make_game},
      {"seize", seize::make_game},
  };
  return registry;
}

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

void register_game(const std::string& name, GameFactory factory) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  games()[name] = std::move(factory);
}

std::vector<std::string> registered_games() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  std::vector<std::string> names;
  for (const auto& entry : games()) names.push_back(entry.first);
  return names;
}

GamePtr load_game(const std::string& rules_name_or_path) {
  const RulesetSource source = find_ruleset(rules_name_or_path);
  const RulesetHeader header = parse_ruleset_header(source);
  GameFactory factory;
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto it = games().find(header.game());
    if (it == games().end()) {
      std::string known;
      for (const auto& entry : games()) known += (known.empty() ? "" : ", ") + entry.first;
      throw GameError(source.origin + ": unknown game '" + header.game() + "' (known: " + known +
                      ")");
    }
    factory = it->second;
  }
  return factory(source);
}

std::unique_ptr<State> Game::setup_state(std::string_view setup) const {
  if (!setup.empty())
    throw GameError(ruleset_name() + " has one fixed start and takes no setup string (got " +
                    quoted(setup) + ")");
  return initial_state();
}

std::unique_ptr<State> Game::parse_start(std::string_view text) const {
  if (text.empty() || text == "startpos") {
    if (random_start())
      throw GameError(ruleset_name() +
                      " has a random start: give a setup string or a position text, or a seed");
    return initial_state();
  }
  // A setup string is one or two words ("354K612/216K543 b"); a position text has more.
  if (random_start() && split_words(text).size() <= 2) return setup_state(text);
  return parse_state(text);
}

uint64_t Game::perft(const State& state, int depth) const {
  if (depth <= 0) return 1;
  if (state.outcome().over) return 0;
  std::vector<Action> actions;
  state.legal_actions(actions);
  if (depth == 1) return actions.size();
  uint64_t nodes = 0;
  for (Action a : actions) {
    std::unique_ptr<State> child = state.clone();
    child->apply(a);
    nodes += perft(*child, depth - 1);
  }
  return nodes;
}

}  // namespace pincer
