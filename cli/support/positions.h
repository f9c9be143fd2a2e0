// Positions given on the command line or in protocol lines: a start (the initial position or a
// game's position text) followed by moves in any accepted form.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"

namespace pincer::cli {

struct Line {
  std::unique_ptr<State> state;  // after all moves
  std::vector<Action> actions;   // the moves played, in order
};

// Plays `moves` from `position_text` (Game::parse_start: "" or "startpos" for a fixed start, a
// setup string or a position text). Throws
// GameError naming the move number and text of the first bad move.
Line play_line(const Game& game, const std::string& position_text,
               const std::vector<std::string>& moves);

// Reads "startpos [moves M...]" or "position <TEXT> [moves M...]".
Line parse_position_command(const Game& game, const std::string& line);

}  // namespace pincer::cli
