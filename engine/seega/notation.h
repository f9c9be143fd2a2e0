// Seega text forms: moves ("b2" places a piece, "b2-b3" moves one) and the one-line position
// text. docs/notation-seega.md is the user-facing description of both.
#pragma once

#include <string>
#include <string_view>

#include "engine/seega/position.h"

namespace pincer::seega {

// "b2" for a placement, "b2-b3" for a step (a forced step of a blocked player's piece too).
std::string action_text(const Rules& rules, int action);
// Reads a move in `pos`; throws GameError saying why text is unreadable or the move illegal.
int parse_action(const Position& pos, std::string_view text);

// "<board> <dark hand>-<light hand> <phase> <turn> <capture-free plies> <ply>", e.g. the 5x5
// start "5/5/5/5/5 12-12 place dark 0 0".
std::string to_text(const Position& pos);
// Strict: throws GameError naming the field and the problem for anything that is not the text
// of a position reachable under `rules` as far as can be checked. `rules` must outlive it.
Position parse_text(const Rules& rules, std::string_view text);

}  // namespace pincer::seega
