// Time management for a bot under a clock: how long to think on this move. A fraction of the
// time left, more in sharp positions (where the search's candidates are close or the game may
// turn on a capture), never so much that the clock runs out; with little time left a bot plays
// fast moves, and where the game counts points, it plays for points. Also the clocks themselves
// (GameClock): one clock for the whole game, as seed 000's site plays SE!ZE, or one per side.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/game.h"

namespace pincer {

struct TimeControl {
  double fraction = 1.0 / 30;  // of the time left, per move
  double sharp_factor = 2.0;   // a sharp position gets up to this many times more
  double reserve_s = 2.0;      // never planned into
  double min_s = 0.02;
  double max_s = 30.0;
  // Below this much time left, a game that counts points is played for points (greedy).
  double panic_s = 15.0;
};

// Seconds to think with `time_left` seconds on the clock; `sharpness` in [0, 1] (0 quiet). Zero
// once only the reserve is left (then a bot plays its quickest move).
double move_time(const TimeControl& tc, double time_left, double sharpness);

// Whether a bot with `time_left` should stop searching and play for points.
inline bool play_for_points(const TimeControl& tc, double time_left) {
  return time_left >= 0 && time_left < tc.panic_s;
}

// Early stop: the most visited move cannot be overtaken when the second's deficit exceeds the
// visits the search can still make.
inline bool best_is_settled(double best_visits, double second_visits, double visits_left) {
  return best_visits - second_visits > visits_left;
}
// The same from a root's child visit counts.
bool visits_settled(const std::vector<uint32_t>& visits, double visits_left);

// Whether the game's ruleset counts points (a piece kind of its board layout is worth some).
bool counts_points(const Game& game);
// How sharp `state` is for the move-time rule: 1 when a capture is possible now, else 0.
double sharpness(const State& state);
// The move that wins at once, else the one capturing the most points at once (first among
// equals in legal order). `state` is not over.
Action points_move(const State& state);

// A game's clock. kGame: one clock for the whole game that runs while either side thinks; when
// it runs out the side with more points wins (equal points: Game::points_tie_winner()). kSide:
// a clock per side; the side whose clock runs out loses.
enum class ClockMode { kNone, kGame, kSide };
struct GameClock {
  ClockMode mode = ClockMode::kNone;
  double seconds = 0;  // per game (kGame) or per side (kSide)
  bool on() const { return mode != ClockMode::kNone; }
};
// Reads "none", "game:MINUTES" or "side:MINUTES" (minutes may be fractional, at most 600);
// throws std::invalid_argument naming the problem.
GameClock parse_clock(const std::string& text);
// The result when the clock of the side to move in `state` runs out.
Outcome clock_outcome(const GameClock& clock, const State& state);

}  // namespace pincer
