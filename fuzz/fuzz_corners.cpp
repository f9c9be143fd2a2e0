// The corners position and move text, deeper than fuzz_state: the text up to the first newline
// is a position, each further line a move played from it while it is legal. Never crashes;
// accepted positions print back to themselves; every legal move's name reads back to it and the
// fast leaf count agrees with the move list; every position reached prints back to itself with
// the same hash, and its result agrees with a fresh parse of its text.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/registry.h"
#include "fuzz/fuzz_common.h"

namespace {

const pincer::Game& corners() {
  static const pincer::GamePtr game = pincer::load_game("corners");
  return *game;
}

void check(const pincer::State& state) {
  using namespace pincer;
  const Game& game = corners();
  const std::unique_ptr<State> back = game.parse_state(state.to_text());
  if (!back->equals(state) || back->hash() != state.hash())
    fuzz::broken("position text round trip");
  const Outcome a = state.outcome(), b = back->outcome();
  if (a.over != b.over || a.winner != b.winner) fuzz::broken("result differs after a round trip");
  std::vector<Action> legal;
  state.legal_actions(legal);
  if (game.perft(state, 1) != legal.size()) fuzz::broken("perft(1) differs from the move list");
  for (Action m : legal) {
    if (game.parse_action(state, game.action_text(state, m, false)) != m)
      fuzz::broken("move text round trip");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  const std::string text(reinterpret_cast<const char*>(data), size);
  size_t end = text.find('\n');
  std::unique_ptr<State> state;
  try {
    state = corners().parse_state(text.substr(0, end));
  } catch (const GameError&) {
    return 0;
  }
  check(*state);
  while (end != std::string::npos) {
    const size_t next = text.find('\n', end + 1);
    const std::string move =
        text.substr(end + 1, next == std::string::npos ? next : next - end - 1);
    end = next;
    Action a;
    try {
      a = corners().parse_action(*state, move);
    } catch (const GameError&) {
      continue;
    }
    std::vector<Action> legal;
    state->legal_actions(legal);
    if (std::find(legal.begin(), legal.end(), a) == legal.end())
      fuzz::broken("parsed an illegal move");
    state->apply(a);
    check(*state);
  }
  return 0;
}
