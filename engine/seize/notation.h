// SE!ZE text and binary forms: moves (long and short), SFEN, and the compact binary position.
// docs/notation.md is the user-facing description of every format here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/seize/position.h"

namespace pincer::seize {

// "c3-c2".
std::string long_move(Move m);
// The shortest unambiguous form among pos's legal moves: "b2", "cb2", "1b2" or "c1b2".
std::string short_move(const Position& pos, Move m);
// Any accepted form; throws GameError for illegal text, or ambiguous text with its candidates.
Move parse_move(const Position& pos, std::string_view text);

// SFEN: "<board> <side> [tokens] [halfmove] [ply] [points]"; which optional fields appear
// depends on the ruleset (docs/notation.md).
std::string to_sfen(const Position& pos);
// Throws GameError naming the field and the problem. `rules` must outlive the position.
Position parse_sfen(const Rules& rules, std::string_view text);

// Bytes in the binary form of a position under `rules` (18 for seize-v0, 19 for seize-reference).
int binary_size(const Rules& rules);
std::vector<uint8_t> to_binary(const Position& pos);  // throws GameError if a counter overflows
Position from_binary(const Rules& rules, const std::vector<uint8_t>& bytes);
// The binary form in unpadded base64url (24 characters for seize-v0).
std::string to_base64(const Position& pos);
Position from_base64(const Rules& rules, std::string_view text);

// Checks what any position must satisfy under its rules (piece counts, powers allowed, tokens
// on marked squares, counters in range); throws GameError. Used by every parser.
void validate(const Position& pos);

}  // namespace pincer::seize
