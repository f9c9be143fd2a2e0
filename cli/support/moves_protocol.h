// The `pincer moves` line protocol: one input line ("startpos [moves ...]" or
// "position <TEXT> [moves ...]") in, one JSON line out: the legal moves, side to move, the last
// move's captures, points and result, or {"error": "..."}. Never throws for bad input.
#pragma once

#include <string>

#include "engine/game.h"

namespace pincer::cli {

std::string answer_moves_line(const Game& game, std::string line);

}  // namespace pincer::cli
