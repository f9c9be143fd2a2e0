// The message of the GameError that `f` throws, or "" when it throws none.
#pragma once

#include <functional>
#include <string>

#include "engine/game.h"

namespace pincer::testing {

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const GameError& e) {
    return e.what();
  }
  return "";
}

}  // namespace pincer::testing
