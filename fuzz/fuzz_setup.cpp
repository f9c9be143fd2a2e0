// Dice setup strings and the generic start reader: the first byte picks a dice ruleset, the rest
// is a setup string. Never crashes; an accepted setup prints back to the same setup, its start
// position text reads back to the same start, and Game::parse_start agrees with it.
#include <string>
#include <vector>

#include "engine/dice/dice_game.h"
#include "engine/dice/notation.h"
#include "engine/registry.h"
#include "fuzz/fuzz_common.h"

namespace {

const std::vector<pincer::GamePtr>& dice_games() {
  static const std::vector<pincer::GamePtr> games = [] {
    std::vector<pincer::GamePtr> out;
    for (const std::string& name : pincer::shipped_ruleset_names())
      if (name.rfind("dice-", 0) == 0) out.push_back(pincer::load_game(name));
    return out;
  }();
  return games;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  if (size == 0) return 0;
  const auto& game =
      static_cast<const dice::DiceGame&>(*dice_games()[data[0] % dice_games().size()]);
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  dice::Setup setup;
  try {
    setup = dice::parse_setup(game.rules(), text);
  } catch (const GameError&) {
    try {
      game.parse_start(text);  // may be a position text; must not crash either way
    } catch (const GameError&) {
    }
    return 0;
  }
  const std::string again = dice::setup_text(game.rules(), setup);
  const dice::Setup back = dice::parse_setup(game.rules(), again);
  if (back.back != setup.back || back.first != setup.first) fuzz::broken("setup round trip");
  const std::unique_ptr<State> start = game.setup_state(text);
  if (!game.parse_state(start->to_text())->equals(*start)) fuzz::broken("start text round trip");
  if (!game.parse_start(text)->equals(*start)) fuzz::broken("parse_start disagrees");
  std::vector<Action> legal;
  start->legal_actions(legal);
  if (legal.empty()) fuzz::broken("a start without moves");
  return 0;
}
