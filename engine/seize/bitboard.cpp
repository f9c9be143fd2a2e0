#include "engine/seize/bitboard.h"

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

std::string square_name(int sq) {
  return std::string{static_cast<char>('a' + file_of(sq)), static_cast<char>('1' + rank_of(sq))};
}

int parse_square(const std::string& text) {
  if (text.size() != 2) return -1;
  const int f = text[0] - 'a', r = text[1] - '1';
  if (!on_board(f, r)) return -1;
  return make_square(f, r);
}

}  // namespace pincer::seize
