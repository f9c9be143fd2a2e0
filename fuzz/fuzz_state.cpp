// Every shipped game's position and move text through the generic interface: the first byte
// picks a ruleset, the text up to the first newline is a position, the rest a move. Never
// crashes; accepted positions print back to themselves; every legal move's long and short text
// reads back to the same action; an accepted move is legal.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/registry.h"
#include "fuzz/fuzz_common.h"

namespace {

const std::vector<pincer::GamePtr>& all_games() {
  static const std::vector<pincer::GamePtr> games = [] {
    std::vector<pincer::GamePtr> out;
    for (const std::string& name : pincer::shipped_ruleset_names())
      out.push_back(pincer::load_game(name));
    return out;
  }();
  return games;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  if (size == 0) return 0;
  const Game& game = *all_games()[data[0] % all_games().size()];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  const size_t newline = text.find('\n');
  const std::string position = text.substr(0, newline);
  const std::string move = newline == std::string::npos ? "" : text.substr(newline + 1);
  std::unique_ptr<State> state;
  try {
    state = game.parse_state(position);
  } catch (const GameError&) {
    return 0;
  }
  if (!game.parse_state(state->to_text())->equals(*state)) fuzz::broken("position text round trip");
  state->outcome();
  std::vector<Action> legal;
  state->legal_actions(legal);
  for (size_t i = 0; i < legal.size() && i < 64; ++i) {
    for (bool short_form : {false, true}) {
      if (game.parse_action(*state, game.action_text(*state, legal[i], short_form)) != legal[i])
        fuzz::broken("move text round trip");
    }
  }
  try {
    const Action a = game.parse_action(*state, move);
    if (std::find(legal.begin(), legal.end(), a) == legal.end())
      fuzz::broken("parsed an illegal move");
  } catch (const GameError&) {
  }
  return 0;
}
