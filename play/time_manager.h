// Time management for a bot under a clock: how long to think on this move. A fraction of the
// time left, more in sharp positions (where the search's candidates are close or the game may
// turn on a capture), never so much that the clock runs out; with little time left a bot plays
// fast moves, and where the game counts points, it plays for points.
#pragma once

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

}  // namespace pincer
