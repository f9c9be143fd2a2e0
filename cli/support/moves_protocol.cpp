#include "cli/support/moves_protocol.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/support/positions.h"

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

}  // namespace

std::string answer_moves_line(const Game& game, std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  Json reply;
  try {
    const Line parsed = parse_position_command(game, line);
    reply = describe(game, *parsed.state);
  } catch (const std::exception& e) {
    reply = Json{{"error", e.what()}};
  }
  return reply.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace pincer::cli
