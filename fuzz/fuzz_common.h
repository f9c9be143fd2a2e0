// Shared by the fuzz targets: the two SE!ZE rulesets, loaded once.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "engine/registry.h"
#include "engine/seize/seize_game.h"

namespace pincer::fuzz {

inline const seize::SeizeGame& game(int which) {
  static const GamePtr games[2] = {load_game("seize-reference"), load_game("seize-v0")};
  return static_cast<const seize::SeizeGame&>(*games[which & 1]);
}

// A property the parsers promise was broken: report and crash so libFuzzer keeps the input.
[[noreturn]] inline void broken(const char* what) {
  std::fprintf(stderr, "property broken: %s\n", what);
  std::abort();
}

}  // namespace pincer::fuzz
