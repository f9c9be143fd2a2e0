// pincer show: the board after a position and moves.
#include <cstdio>

#include "cli/support/commands.h"
#include "cli/support/positions.h"
#include "engine/registry.h"

namespace pincer::cli {
namespace {

struct ShowArgs {
  std::string rules = "seize-reference";
  std::string position;
  std::vector<std::string> moves;
  int64_t seed = -1;
};

void run(const ShowArgs& o) {
  const GamePtr game = load_game(o.rules);
  // --seed: the start a random-start game draws from that seed (as self-play and matches do).
  const std::string setup = o.seed >= 0 && o.position.empty()
                                ? game->draw_setup(static_cast<uint64_t>(o.seed))
                                : std::string();
  const Line line = play_line(*game, setup.empty() ? o.position : setup, o.moves);
  if (!setup.empty()) std::printf("  setup: %s\n", setup.c_str());
  std::fputs(line.state->to_diagram().c_str(), stdout);
  std::printf("  position: %s\n", line.state->to_text().c_str());
  const std::string compact = line.state->to_compact();
  if (!compact.empty()) std::printf("  compact: %s\n", compact.c_str());
  const Outcome out = line.state->outcome();
  if (out.over) {
    std::printf("  game over: %s (%s)\n",
                out.winner < 0 ? "draw" : (game->side_name(out.winner) + " wins").c_str(),
                out.reason);
  }
}

RegisterCommand register_show{
    "show", "Print the board of a position", [](CLI::App& app) {
      auto o = std::make_shared<ShowArgs>();
      app.add_option("--rules", o->rules, "Ruleset name or file")->capture_default_str();
      app.add_option("--position", o->position, "Position text (default: the start)");
      app.add_option("--moves", o->moves, "Moves to play first, in any accepted form");
      app.add_option("--seed", o->seed,
                     "Without --position: the start a random-start game draws from this seed");
      app.callback([o] { run(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
