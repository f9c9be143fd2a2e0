#include "play/time_manager.h"

#include <algorithm>

namespace pincer {

double move_time(const TimeControl& tc, double time_left, double sharpness) {
  const double usable = std::max(0.0, time_left - tc.reserve_s);
  sharpness = std::clamp(sharpness, 0.0, 1.0);
  const double t = usable * tc.fraction * (1.0 + (tc.sharp_factor - 1.0) * sharpness);
  // Never more than a quarter of what is left past the reserve, whatever the settings: at the
  // reserve the bot plays at once (its smallest search).
  return std::min(std::clamp(t, tc.min_s, tc.max_s), usable / 4);
}

}  // namespace pincer
