#include "play/time_manager.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pincer {

double move_time(const TimeControl& tc, double time_left, double sharpness) {
  const double usable = std::max(0.0, time_left - tc.reserve_s);
  sharpness = std::clamp(sharpness, 0.0, 1.0);
  const double t = usable * tc.fraction * (1.0 + (tc.sharp_factor - 1.0) * sharpness);
  // Never more than a quarter of what is left past the reserve, whatever the settings: at the
  // reserve the bot plays at once (its smallest search).
  return std::min(std::clamp(t, tc.min_s, tc.max_s), usable / 4);
}

bool visits_settled(const std::vector<uint32_t>& visits, double visits_left) {
  uint32_t best = 0, second = 0;
  for (uint32_t v : visits) {
    if (v > best) {
      second = best;
      best = v;
    } else if (v > second) {
      second = v;
    }
  }
  return best_is_settled(best, second, visits_left);
}

bool counts_points(const Game& game) {
  for (const PieceKind& k : game.board_layout().kinds) {
    if (k.points > 0) return true;
  }
  return false;
}

double sharpness(const State& state) {
  std::vector<Action> legal;
  state.legal_actions(legal);
  for (Action a : legal) {
    auto next = state.clone();
    next->apply(a);
    if (!next->last_captured().empty()) return 1.0;
  }
  return 0.0;
}

Action points_move(const State& state) {
  std::vector<Action> legal;
  state.legal_actions(legal);
  if (legal.empty()) throw std::logic_error("points_move: the game is over");
  Action best = legal.front();
  int best_gain = -1;
  const int me = state.to_move();
  for (Action a : legal) {
    auto next = state.clone();
    next->apply(a);
    const Outcome o = next->outcome();
    if (o.over && o.winner == me) return a;
    const int gain = next->points()[me] - state.points()[me];
    if (gain > best_gain) best_gain = gain, best = a;
  }
  return best;
}

GameClock parse_clock(const std::string& text) {
  if (text.empty() || text == "none") return {};
  const size_t colon = text.find(':');
  const std::string mode = text.substr(0, colon);
  GameClock c;
  if (mode == "game") {
    c.mode = ClockMode::kGame;
  } else if (mode == "side") {
    c.mode = ClockMode::kSide;
  } else {
    throw std::invalid_argument("clock \"" + text +
                                "\": write none, game:MINUTES (one clock for the whole game) or "
                                "side:MINUTES (a clock per side)");
  }
  const std::string minutes = colon == std::string::npos ? "" : text.substr(colon + 1);
  size_t used = 0;
  double m = 0;
  try {
    m = std::stod(minutes, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (minutes.empty() || used != minutes.size() || !(m > 0) || m > 600) {
    throw std::invalid_argument("clock \"" + text + "\": minutes must be a number in (0, 600]");
  }
  c.seconds = m * 60;
  return c;
}

Outcome clock_outcome(const GameClock& clock, const State& state) {
  Outcome o;
  o.over = true;
  if (clock.mode == ClockMode::kSide) {
    o.winner = 1 - state.to_move();
    o.reason = "time";
    return o;
  }
  const std::array<int, 2> p = state.points();
  o.winner = p[0] > p[1] ? 0 : p[1] > p[0] ? 1 : state.game().points_tie_winner();
  o.reason = "time, points";
  return o;
}

}  // namespace pincer
