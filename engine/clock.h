#pragma once
// Seconds on the steady clock: for intervals and deadlines (never wall time).
#include <chrono>

namespace pincer {

inline double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace pincer
