#include "engine/seega/rules.h"

#include "engine/game.h"
#include "engine/game_helpers.h"

namespace pincer::seega {

const char* const kSideName[2] = {"dark", "light"};

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw GameError("rules." + field + ": " + why);
}

}  // namespace

std::string Rules::square_name(int sq) const { return grid_square_name(file_of(sq), rank_of(sq)); }

int Rules::parse_square(std::string_view text) const {
  int f = 0, r = 0;
  if (!parse_grid_square(text, f, r) || !on_board(f, r)) return -1;
  return make_square(f, r);
}

Rules compile_rules(const SeegaRules& p) {
  Rules r;
  r.size = p.board().size();
  if (r.size != 3 && r.size != 5 && r.size != 7) bad("board.size", "must be 3, 5 or 7");
  r.num_squares = r.size * r.size;
  r.centre = r.num_squares / 2;
  r.board = (Bitboard{1} << r.num_squares) - 1;
  for (int sq = 0; sq < kMaxSquares; ++sq)
    for (int d = 0; d < 8; ++d) r.neighbour[sq][d] = -1;
  for (int d = 0; d < 8; ++d) r.delta[d] = kDirFile[d] + r.size * kDirRank[d];
  for (int sq = 0; sq < r.num_squares; ++sq) {
    for (int d = 0; d < 8; ++d) {
      const int f = r.file_of(sq) + kDirFile[d], rk = r.rank_of(sq) + kDirRank[d];
      if (!r.on_board(f, rk)) continue;
      r.neighbour[sq][d] = static_cast<int8_t>(r.make_square(f, rk));
      r.step_from[d] |= bit(sq);
    }
  }

  const auto& pl = p.placement();
  const bool centre_free = pl.centre_free();
  r.placeable = centre_free ? r.board & ~bit(r.centre) : r.board;
  r.pieces = pl.pieces();
  if (r.pieces < 1 || 2 * r.pieces > popcount(r.placeable))
    bad("placement.pieces", "must be 1 to " + std::to_string(popcount(r.placeable) / 2) +
                                " (both sides' pieces must fit on the board)");
  r.per_turn = pl.per_turn();
  if (r.per_turn < 1 || r.pieces % r.per_turn != 0)
    bad("placement.per_turn", "must be at least 1 and divide placement.pieces");

  switch (p.movement().starter()) {
    case SeegaRules::ALTERNATION:
      r.movement_starter = r.placement_actor(2 * r.pieces - 1) ^ 1;
      break;
    case SeegaRules::SECOND_PLAYER:
      r.movement_starter = kLight;
      break;
    default:
      bad("movement.starter", "must be ALTERNATION or SECOND_PLAYER");
  }

  const auto& b = p.blocked();
  switch (b.rule()) {
    case SeegaRules::OPPONENT_MOVES:
      r.blocked = BlockedRule::kOpponentMoves;
      break;
    case SeegaRules::PASS:
      r.blocked = BlockedRule::kPass;
      break;
    case SeegaRules::LOSES:
      r.blocked = BlockedRule::kLoses;
      break;
    default:
      bad("blocked.rule", "must be OPPONENT_MOVES, PASS or LOSES");
  }
  if (b.forced_step() == SeegaRules::ALL_EIGHT)
    r.forced_dirs_step = 1;
  else if (b.forced_step() == SeegaRules::ORTHOGONAL)
    r.forced_dirs_step = 2;
  else
    bad("blocked.forced_step", "must be ORTHOGONAL or ALL_EIGHT");
  r.forced_move_captures = b.forced_move_captures();

  r.reduced_to = p.wins().reduced_to();
  if (r.reduced_to < 0 || r.reduced_to >= r.pieces)
    bad("wins.reduced_to", "must be 0 to placement.pieces - 1");
  r.capture_free_plies = p.draw().capture_free_plies();
  // Every game ends, and within 65535 plies (the ply counter): at most 2 * pieces placements and
  // captures, each preceded by at most capture_free_plies quiet plies.
  if (r.capture_free_plies < 1 || r.capture_free_plies > 1000)
    bad("draw.capture_free_plies", "must be 1 to 1000 so that every game ends");
  return r;
}

}  // namespace pincer::seega
