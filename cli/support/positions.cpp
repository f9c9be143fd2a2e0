#include "cli/support/positions.h"

#include <sstream>

#include "engine/text.h"

namespace pincer::cli {

Line play_line(const Game& game, const std::string& position_text,
               const std::vector<std::string>& moves) {
  Line line;
  // "startpos" is an error for a random-start game; a setup string is one of its starts.
  line.state = game.parse_start(position_text);
  for (size_t i = 0; i < moves.size(); ++i) {
    try {
      if (line.state->outcome().over) throw GameError("the game is already over");
      const Action a = game.parse_action(*line.state, moves[i]);
      line.state->apply(a);
      line.actions.push_back(a);
    } catch (const GameError& e) {
      throw GameError("move " + std::to_string(i + 1) + " '" + moves[i] + "': " + e.what());
    }
  }
  return line;
}

Line parse_position_command(const Game& game, const std::string& text) {
  const std::vector<std::string> words = split_words(text);
  if (words.empty())
    throw GameError("empty line (want 'startpos [moves ...]' or 'position <TEXT> [moves ...]')");
  size_t i = 0;
  std::string position;
  if (words[0] == "startpos") {
    i = 1;
  } else if (words[0] == "position") {
    for (i = 1; i < words.size() && words[i] != "moves"; ++i)
      position += (position.empty() ? "" : " ") + words[i];
    if (position.empty()) throw GameError("'position' needs the position text");
    if (position == "startpos") position.clear();
  } else {
    throw GameError("line must start with 'startpos' or 'position', not '" + words[0] + "'");
  }
  std::vector<std::string> moves;
  if (i < words.size()) {
    if (words[i] != "moves") throw GameError("expected 'moves', got '" + words[i] + "'");
    moves.assign(words.begin() + static_cast<long>(i) + 1, words.end());
  }
  return play_line(game, position, moves);
}

}  // namespace pincer::cli
