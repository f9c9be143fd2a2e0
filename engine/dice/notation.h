// Dice text forms: moves ("a1-b3"), the FEN-like position text and setup strings. The dice
// section of docs/notation.md is the user-facing description.
#pragma once

#include <string>
#include <string_view>

#include "engine/dice/position.h"

namespace pincer::dice {

// "a1-b3": the square a die leaves and the square it goes to (always this long form).
std::string action_text(const Rules& rules, int action);
// Reads a move in `pos`; throws GameError saying why text is unreadable or the move illegal.
int parse_action(const Position& pos, std::string_view text);

// Ranks from the top with '/' between them (white dice A-F for faces 1-6 and K for the King,
// black the same in lower case, digits for runs of empty squares), then the side to move (w/b),
// the ply number, the plies since the last capture and the points W-B:
// "bafkedc/bbbbbbb/7/7/7/BBBBBBB/CEDKFAB w 0 0 0-0".
std::string to_text(const Position& pos);
// Strict: throws GameError naming the field and the problem. `rules` must outlive it.
Position parse_text(const Rules& rules, std::string_view text);

// White's back row then black's, each from file a: 'K' on the King file, a face 1-6 elsewhere,
// and " b" when black moves first: "354K612/216K543", "35K612/21K543 b".
std::string setup_text(const Rules& rules, const Setup& setup);
Setup parse_setup(const Rules& rules, std::string_view text);
// The setup of a seed: every back-row die rolled (and the first mover, when the rules roll it).
Setup draw_setup(const Rules& rules, uint64_t seed);

}  // namespace pincer::dice
