#include "engine/corners/rules.h"

#include <algorithm>

#include "engine/game.h"

namespace pincer::corners {

const char* const kSideName[2] = {"white", "black"};

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw GameError("rules." + field + ": " + why);
}

}  // namespace

std::string Rules::square_name(int sq) {
  return std::string{static_cast<char>('a' + sq % 8), static_cast<char>('1' + sq / 8)};
}

std::string Rules::point_name(int pt) { return square_name(pt) + "'"; }

int Rules::parse_square(std::string_view text) {
  if (text.size() != 2) return -1;
  const int f = text[0] - 'a', r = text[1] - '1';
  if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
  return f + 8 * r;
}

int Rules::parse_point(std::string_view text) {
  if (text.size() != 3 || text[2] != '\'') return -1;
  const int f = text[0] - 'a', r = text[1] - '1';
  if (f < 0 || f > 6 || r < 0 || r > 6) return -1;
  return f + 8 * r;
}

Rules compile_rules(const CornersRules& p) {
  Rules r;
  switch (p.first()) {
    case CornersRules::WHITE:
      r.first = kWhite;
      break;
    case CornersRules::BLACK:
      r.first = kBlack;
      break;
    default:
      bad("first", "must be WHITE or BLACK");
  }
  r.back_rows = p.setup().back_rows();
  r.rows = p.setup().rows();
  if (r.back_rows < 0 || r.back_rows > 2) bad("setup.back_rows", "must be 0 to 2");
  if (r.rows < 1 || r.back_rows + r.rows > 3)
    bad("setup.rows", "must be at least 1, with setup.back_rows + setup.rows at most 3");
  r.pieces = 8 * r.rows;
  for (int i = 0; i < r.rows; ++i) {
    r.start[kWhite] |= kRank1 << (8 * (r.back_rows + i));
    r.start[kBlack] |= kRank8 >> (8 * (r.back_rows + i));
  }
  r.no_overlap = p.corner_move().no_overlap();
  r.max_placements = p.divide().max_placements();
  if (r.max_placements < 1 || r.max_placements > 4) bad("divide.max_placements", "must be 1 to 4");
  r.empty_allowed = p.divide().empty_allowed();
  r.divider_to_reserve = p.divide().divider_to_reserve();
  r.cross = p.capture().cross();
  switch (p.no_moves()) {
    case CornersRules::LOSES:
      r.no_moves_loses = true;
      break;
    case CornersRules::DRAW:
      r.no_moves_loses = false;
      break;
    default:
      bad("no_moves", "must be LOSES or DRAW");
  }
  r.limit = p.limit().plies();
  if (r.limit < 1 || r.limit > 10000)
    bad("limit.plies", "must be 1 to 10000 so that every game ends");

  for (int sq = 0; sq < 64; ++sq) {
    const int f = sq % 8, rk = sq / 8;
    const int df[4] = {0, 1, 0, -1}, dr[4] = {1, 0, -1, 0};
    for (int d = 0; d < 4; ++d) {
      for (int x = f + df[d], y = rk + dr[d]; x >= 0 && x < 8 && y >= 0 && y < 8;
           x += df[d], y += dr[d])
        r.ray[d][sq] |= bit(x + 8 * y);
    }
  }
  // divide_count[n][c]: subsets of n squares of size at most c (at least 1 without empty ones).
  for (int n = 0; n <= 4; ++n) {
    for (int c = 0; c <= 4; ++c) {
      int binom = 1, total = 0;
      for (int k = 0; k <= std::min(n, std::min(c, r.max_placements)); ++k) {
        if (k > 0 || r.empty_allowed) total += binom;
        binom = binom * (n - k) / (k + 1);
      }
      r.divide_count[n][c] = total;
    }
  }
  return r;
}

}  // namespace pincer::corners
