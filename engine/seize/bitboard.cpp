#include "engine/seize/bitboard.h"

#include "engine/game_helpers.h"

namespace pincer::seize {

namespace {

Tables build_tables() {
  Tables t{};
  for (int sq = 0; sq < 64; ++sq) {
    const int f = file_of(sq), r = rank_of(sq);
    for (int d = 0; d < 8; ++d) {
      int ff = f + kDirFile[d], rr = r + kDirRank[d];
      int dist = 0;
      while (on_board(ff, rr)) {
        const Bitboard b = bit(make_square(ff, rr));
        ++dist;
        if (dist == 1) t.step[sq][d] = b;
        if (dist == 2) t.jump[sq][d] = b;
        if (dist <= 2) t.near[sq][d] |= b;
        t.ray[sq][d] |= b;
        ff += kDirFile[d];
        rr += kDirRank[d];
      }
      t.king[sq] |= t.step[sq][d];
      if (is_orthogonal(d)) t.orth[sq] |= t.step[sq][d];
    }
  }
  return t;
}

}  // namespace

const Tables kTables = build_tables();

std::string square_name(int sq) { return grid_square_name(file_of(sq), rank_of(sq)); }

int parse_square(const std::string& text) {
  int f = 0, r = 0;
  if (!parse_grid_square(text, f, r) || !on_board(f, r)) return -1;
  return make_square(f, r);
}

}  // namespace pincer::seize
