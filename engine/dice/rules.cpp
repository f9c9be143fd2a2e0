#include "engine/dice/rules.h"

#include "engine/game.h"

namespace pincer::dice {

const char* const kSideName[2] = {"white", "black"};

std::string Rules::square_name(int sq) const {
  return std::string(1, static_cast<char>('a' + file_of(sq))) + std::to_string(rank_of(sq) + 1);
}

int Rules::parse_square(std::string_view text) const {
  if (text.size() != 2) return -1;
  const int file = text[0] - 'a', rank = text[1] - '1';
  if (file < 0 || file >= size || rank < 0 || rank >= size) return -1;
  return make_square(file, rank);
}

namespace {

[[noreturn]] void refuse(const std::string& field, const std::string& why) {
  throw GameError("rules." + field + ": " + why);
}

}  // namespace

Rules compile_rules(const DiceRules& p) {
  Rules r;
  if (p.board().size() < 6 || p.board().size() > 8) refuse("board.size", "must be 6, 7 or 8");
  r.size = p.board().size();
  r.num_squares = r.size * r.size;
  if (p.setup().pawn_face() != 1 && p.setup().pawn_face() != 2)
    refuse("setup.pawn_face", "must be 1 or 2 (a pawn)");
  r.pawn_face = p.setup().pawn_face();
  const std::string& kf = p.setup().king_file();
  if (kf.size() != 1 || kf[0] < 'a' || kf[0] >= 'a' + r.size)
    refuse("setup.king_file", "must be a file letter a-" + std::string(1, 'a' + r.size - 1));
  r.king_file = kf[0] - 'a';
  switch (p.setup().first_mover()) {
    case DiceRules::WHITE:
      r.roll_first_mover = false;
      break;
    case DiceRules::ROLLED:
      r.roll_first_mover = true;
      break;
    default:
      refuse("setup.first_mover", "must be WHITE or ROLLED");
  }
  r.pawn_wall = p.moves().pawn_wall();
  r.promotion = p.moves().promotion();
  if (p.scoring().target() < 0 || p.scoring().target() > 1000)
    refuse("scoring.target", "must be 0 (off) to 1000");
  if (p.scoring().die_points() < 0 || p.scoring().die_points() > 100)
    refuse("scoring.die_points", "must be 0 to 100");
  if (p.scoring().king_points() < 0 || p.scoring().king_points() > 100)
    refuse("scoring.king_points", "must be 0 to 100");
  r.score_target = p.scoring().target();
  r.die_points = p.scoring().die_points();
  r.king_points = p.scoring().king_points();
  if (r.scored() && r.die_points == 0 && r.king_points == 0)
    refuse("scoring.target", "scored play needs die_points or king_points above 0");
  if (p.timed().plies() < 0 || p.timed().plies() > 10000)
    refuse("timed.plies", "must be 0 to 10000");
  r.timed_plies = p.timed().plies();
  switch (p.end().no_moves()) {
    case DiceRules::LOSES:
      r.no_moves = NoMoves::kLoses;
      break;
    case DiceRules::DRAW:
      r.no_moves = NoMoves::kDraw;
      break;
    default:
      refuse("end.no_moves", "must be LOSES or DRAW");
  }
  if (p.end().capture_free_plies() < 1 || p.end().capture_free_plies() > 10000)
    refuse("end.capture_free_plies", "must be 1 to 10000 (every game must end)");
  r.capture_free_plies = p.end().capture_free_plies();

  const int n = r.size;
  for (int sq = 0; sq < r.num_squares; ++sq) {
    r.board |= bit(sq);
    r.rank_mask[r.rank_of(sq)] |= bit(sq);
  }
  auto on = [n](int f, int k) { return f >= 0 && f < n && k >= 0 && k < n; };
  static const int kKnightFile[8] = {1, 2, 2, 1, -1, -2, -2, -1};
  static const int kKnightRank[8] = {2, 1, -1, -2, -2, -1, 1, 2};
  for (int sq = 0; sq < r.num_squares; ++sq) {
    const int f = r.file_of(sq), k = r.rank_of(sq);
    for (int i = 0; i < 8; ++i) {
      if (on(f + kKnightFile[i], k + kKnightRank[i]))
        r.knight[sq] |= bit(r.make_square(f + kKnightFile[i], k + kKnightRank[i]));
      if (on(f + kDirFile[i], k + kDirRank[i]))
        r.king[sq] |= bit(r.make_square(f + kDirFile[i], k + kDirRank[i]));
      for (int s = 1; on(f + s * kDirFile[i], k + s * kDirRank[i]); ++s)
        r.ray[i][sq] |= bit(r.make_square(f + s * kDirFile[i], k + s * kDirRank[i]));
    }
  }
  return r;
}

}  // namespace pincer::dice
