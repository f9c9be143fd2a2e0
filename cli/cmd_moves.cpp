// pincer moves: a line protocol for positions. Each input line is "startpos [moves ...]" or
// "position <TEXT> [moves ...]"; each gets one JSON line with the legal moves, side to move, the
// last move's captures, points and result, or {"error": "..."}; the process goes on either way.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/support/commands.h"
#include "cli/support/positions.h"
#include "engine/registry.h"

namespace pincer::cli {
namespace {

using Json = nlohmann::ordered_json;

Json describe(const Game& game, const State& state) {
  Json out;
  std::vector<Action> legal;
  state.legal_actions(legal);
  std::vector<std::string> moves;
  for (Action a : legal) moves.push_back(game.action_text(state, a, false));
  std::sort(moves.begin(), moves.end());
  out["legal"] = moves;
  out["to_move"] = game.side_name(state.to_move());
  out["captured"] = state.last_captured();
  const std::array<int, 2> points = state.points();
  out["points"] = Json{{game.side_name(0), points[0]}, {game.side_name(1), points[1]}};
  const Outcome o = state.outcome();
  if (o.over) {
    out["result"] = Json{{"winner", o.winner < 0 ? std::string("draw") : game.side_name(o.winner)},
                         {"reason", o.reason}};
  } else {
    out["result"] = nullptr;
  }
  return out;
}

void run(const std::string& rules) {
  const GamePtr game = load_game(rules);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    Json reply;
    try {
      const Line parsed = parse_position_command(*game, line);
      reply = describe(*game, *parsed.state);
    } catch (const std::exception& e) {
      reply = Json{{"error", e.what()}};
    }
    std::cout << reply.dump(-1, ' ', false, Json::error_handler_t::replace) << std::endl;
  }
}

RegisterCommand reg{
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
