// Helpers shared by the book tests.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"

namespace pincer::book::testing {

// A path for `name` in this process's scratch folder of the test file `suite`.
inline std::string scratch_path(const std::string& suite, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("pincer-" + suite + "-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// The position after `moves` (move text) from the start.
inline std::unique_ptr<State> after(const Game& game, const std::vector<std::string>& moves) {
  auto s = game.initial_state();
  for (const std::string& m : moves) s->apply(game.parse_action(*s, m));
  return s;
}

}  // namespace pincer::book::testing
