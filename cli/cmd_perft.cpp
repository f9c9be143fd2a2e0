// pincer perft: leaf counts of the game tree, one line per depth, with speed.
#include <chrono>
#include <cstdio>

#include "cli/support/commands.h"
#include "cli/support/positions.h"
#include "engine/registry.h"

namespace pincer::cli {
namespace {

struct PerftArgs {
  std::string rules = "seize-reference";
  int depth = 4;
  std::string position;
  std::vector<std::string> moves;
  bool divide = false;
};

void run(const PerftArgs& o) {
  const GamePtr game = load_game(o.rules);
  const Line line = play_line(*game, o.position, o.moves);
  const State& root = *line.state;
  if (o.divide) {
    std::vector<Action> actions;
    root.legal_actions(actions);
    uint64_t total = 0;
    for (Action a : actions) {
      auto child = root.clone();
      child->apply(a);
      const uint64_t n = game->perft(*child, o.depth - 1);
      total += n;
      std::printf("%s: %llu\n", game->action_text(root, a, false).c_str(),
                  static_cast<unsigned long long>(n));
    }
    std::printf("total: %llu\n", static_cast<unsigned long long>(total));
    return;
  }
  for (int d = 1; d <= o.depth; ++d) {
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t nodes = game->perft(root, d);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("depth=%d nodes=%llu time=%.3f nps=%.0f\n", d,
                static_cast<unsigned long long>(nodes), s, s > 0 ? nodes / s : 0.0);
    std::fflush(stdout);
  }
}

RegisterCommand register_perft{
    "perft", "Count the leaves of the game tree to a depth (move generator check and speed)",
    [](CLI::App& app) {
      auto o = std::make_shared<PerftArgs>();
      app.add_option("--rules", o->rules, "Ruleset name or file")->capture_default_str();
      app.add_option("--depth", o->depth, "Plies")->capture_default_str()->check(CLI::Range(1, 30));
      app.add_option("--position", o->position, "Position text (default: the start)");
      app.add_option("--moves", o->moves, "Moves played from the position first");
      app.add_flag("--divide", o->divide, "Leaf count below each legal move at --depth");
      app.callback([o] { run(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
