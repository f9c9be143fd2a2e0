// pincer moves: a line protocol for positions (cli/support/moves_protocol.h). Each input line gets
// one JSON line; the process goes on after bad lines.
#include <iostream>

#include "cli/support/commands.h"
#include "cli/support/moves_protocol.h"
#include "engine/registry.h"

namespace pincer::cli {
namespace {

void run(const std::string& rules) {
  const GamePtr game = load_game(rules);
  std::string line;
  while (std::getline(std::cin, line)) std::cout << answer_moves_line(*game, line) << std::endl;
}

RegisterCommand register_moves{
    "moves",
    "JSON line protocol: read 'startpos moves ...' or 'position <TEXT> moves ...' "
    "lines, answer each with legal moves, side to move, captures, points, result",
    [](CLI::App& app) {
      auto rules = std::make_shared<std::string>("seize-reference");
      app.add_option("--rules", *rules, "Ruleset name or file")->capture_default_str();
      app.callback([rules] { run(*rules); });
    }};

}  // namespace
}  // namespace pincer::cli
