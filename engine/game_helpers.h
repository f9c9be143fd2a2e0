// What every game on a square grid needs and would otherwise copy: square names, side names,
// building a game from its ruleset file. engine/bits.h has the bit operations and compass
// directions, engine/random.h the Zobrist key stream.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "engine/game.h"
#include "engine/ruleset.h"

namespace pincer {

// "a1": the file as a letter from 'a', the rank as a number from 1.
std::string grid_square_name(int file, int rank);
// The file and rank of a square name (a letter, then a number from 1 without leading zeros);
// false for anything else. Whether the square is on the board is the game's to check.
bool parse_grid_square(std::string_view text, int& file, int& rank);
// A player given by its name or the name's first letter: 0, 1, or -1 for neither.
int parse_side_name(std::string_view text, std::string_view name0, std::string_view name1);

// A square board of `size` files and ranks, drawn from the top rank down: the file letters above
// and below, each rank's number on both sides, and `cell(file, rank)` for every square (each
// `width` characters with its symbol at offset 1, so that it stands under its letter); `gap`
// spaces before the right-hand rank number. Every line ends in a newline.
std::string grid_diagram(int size, int width, int gap,
                         const std::function<std::string(int file, int rank)>& cell);

// A game from a ruleset file's text: parses the game's ruleset message over its base ruleset, if
// it names one (parse_ruleset_file; unknown fields and syntax errors refused with line and
// column), builds the game, and names the file in a GameError.
template <typename GameT, typename RulesetT>
GamePtr make_game_from(const RulesetSource& source) {
  RulesetT ruleset;
  parse_ruleset_file(source, ruleset);
  try {
    return std::make_shared<GameT>(std::move(ruleset));
  } catch (const GameError& e) {
    throw GameError(source.origin + ": " + e.what());
  }
}

}  // namespace pincer
