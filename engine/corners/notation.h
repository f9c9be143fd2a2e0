// Corners text forms: moves (`b2-b4` run, `b2-b2'` square to point, `b2'-c3` point to square,
// `d4'*d4e5` divide) and the one-line position text. docs/notation.md describes both.
#pragma once

#include <string>
#include <string_view>

#include "engine/corners/position.h"

namespace pincer::corners {

// The one name of an action (any id of the action space).
std::string action_text(int action);
// Reads a move in `pos`; throws GameError saying why text is unreadable or the move illegal.
int parse_action(const Position& pos, std::string_view text);

// "<squares> <points> <side> <white reserve> <black reserve> <ply>"; see rules.h and the issue.
std::string to_text(const Position& pos);
// Strict: throws GameError naming the field and the problem. `rules` must outlive the result.
Position parse_text(const Rules& rules, std::string_view text);

}  // namespace pincer::corners
