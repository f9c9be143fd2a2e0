// pincer play: one game between two players, move by move, with the final board and result.
#include <cstdio>

#include "cli/support/commands.h"
#include "cli/support/positions.h"
#include "engine/registry.h"
#include "play/match.h"
#include "play/players.h"

namespace pincer::cli {
namespace {

struct PlayArgs {
  std::string rules = "seize-reference";
  std::string a = "alphabeta:time=0.5", b = "mcts:sims=400";
  uint64_t seed = 1;
  std::string position;
  std::vector<std::string> moves;
  int max_plies = 2000;
  bool quiet = false;
};

void run(const PlayArgs& o) {
  const GamePtr game = load_game(o.rules);
  // A random-start game without --position starts from the setup the seed draws.
  const std::string start =
      o.position.empty() && game->random_start() ? game->draw_setup(o.seed) : o.position;
  const Line line = play_line(*game, start, o.moves);
  std::unique_ptr<Player> pa = make_player(game, o.a, mix_seed(o.seed, 1));
  std::unique_ptr<Player> pb = make_player(game, o.b, mix_seed(o.seed, 2));
  Player* players[2] = {pa.get(), pb.get()};
  std::printf("%s: %s\n%s: %s\nrules: %s (%s)\n", game->side_name(0).c_str(), o.a.c_str(),
              game->side_name(1).c_str(), o.b.c_str(), game->ruleset_name().c_str(),
              game->fingerprint().c_str());
  if (!start.empty()) std::printf("start: %s\n", start.c_str());
  if (line.state->outcome().over) throw GameError("the game is already over in that position");
  int ply = 0;
  const PlayedGame g =
      play_game(*line.state, players, o.max_plies, [&](const State& s, Action a, int mover) {
        ++ply;
        if (o.quiet) return;
        auto after = s.clone();
        after->apply(a);
        std::string captured;
        for (const std::string& sq : after->last_captured()) captured += " x" + sq;
        const std::string info = players[mover]->last_info();
        std::printf("%4d. %-8s %-8s %-6s%-14s%s%s\n", ply, game->side_name(mover).c_str(),
                    game->action_text(s, a, false).c_str(), game->action_text(s, a, true).c_str(),
                    captured.c_str(), info.empty() ? "" : "  ", info.c_str());
        std::fflush(stdout);
      });
  auto final_state = line.state->clone();
  for (Action a : g.actions) final_state->apply(a);
  std::printf("\n%s", final_state->to_diagram().c_str());
  std::printf("  position: %s\n", final_state->to_text().c_str());
  if (g.adjudicated) {
    std::printf("result: draw (stopped after %d plies)\n", o.max_plies);
  } else if (g.outcome.winner < 0) {
    std::printf("result: draw (%s) after %zu plies\n", g.outcome.reason, g.actions.size());
  } else {
    std::printf("result: %s wins (%s) after %zu plies: %s\n",
                game->side_name(g.outcome.winner).c_str(), g.outcome.reason, g.actions.size(),
                players[g.outcome.winner]->spec().c_str());
  }
}

RegisterCommand register_play{
    "play", "Play one game between two players and print it move by move", [](CLI::App& app) {
      auto o = std::make_shared<PlayArgs>();
      app.add_option("--rules", o->rules, "Ruleset name or file")->capture_default_str();
      app.add_option("--a", o->a, "Spec of the player who is player 0 (bottom)")
          ->capture_default_str();
      app.add_option("--b", o->b, "Spec of the player who is player 1 (top)")
          ->capture_default_str();
      app.add_option("--seed", o->seed,
                     "Seed of the players (and of the start of a random-start game)")
          ->capture_default_str();
      app.add_option("--position", o->position, "Start position text");
      app.add_option("--moves", o->moves, "Moves played from it first");
      app.add_option("--max-plies", o->max_plies, "Stop as a draw after this")
          ->capture_default_str()
          ->check(CLI::Range(1, 1000000));
      app.add_flag("--quiet", o->quiet, "Print only the end");
      app.callback([o] { run(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
