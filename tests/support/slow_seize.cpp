#include "tests/support/slow_seize.h"

namespace pincer::testing {

namespace {

bool inside(int f, int r) {
  if (f < 0 || f > 7 || r < 0 || r > 7) return false;
  const bool corner = (f == 0 || f == 7) && (r == 0 || r == 7);
  return !corner;
}

bool listed(seize::Bitboard squares, int f, int r) { return (squares >> (f + 8 * r)) & 1; }

const int kDf[8] = {0, 1, 1, 1, 0, -1, -1, -1};
const int kDr[8] = {1, 1, 0, -1, -1, -1, 0, 1};
bool diagonal(int d) { return d % 2 == 1; }

// Every move the side to move has, ignoring whether the game is over.
std::vector<std::pair<int, int>> raw_moves(const SlowSeize& s) {
  const seize::Rules& R = *s.rules;
  std::vector<std::pair<int, int>> out;
  for (int f = 0; f < 8; ++f) {
    for (int r = 0; r < 8; ++r) {
      const SlowSeize::Cell& c = s.cell[f][r];
      if (c.owner != s.stm) continue;
      bool reach[8][8] = {};
      auto walk = [&](int d, int max) {
        for (int k = 1; k <= max; ++k) {
          const int ff = f + k * kDf[d], rr = r + k * kDr[d];
          if (!inside(ff, rr) || s.cell[ff][rr].owner >= 0) break;
          reach[ff][rr] = true;
        }
      };
      if (c.power == 0 || R.power_adds) {
        for (int d = 0; d < 8; ++d) {
          if (c.boss)
            walk(d, R.boss_range);
          else if (!diagonal(d) || R.guard_steps_diagonally)
            walk(d, 1);
        }
      }
      for (int d = 0; d < 8; ++d) {
        if (c.power == 1 && !diagonal(d)) walk(d, 7);
        if (c.power == 2 && diagonal(d)) walk(d, 7);
        if (c.power == 3) walk(d, R.boss_range);
      }
      for (int ff = 0; ff < 8; ++ff)
        for (int rr = 0; rr < 8; ++rr)
          if (reach[ff][rr]) out.emplace_back(f + 8 * r, ff + 8 * rr);
    }
  }
  return out;
}

}  // namespace

SlowSeize SlowSeize::from(const seize::Position& pos) {
  SlowSeize s;
  s.rules = &pos.rules();
  for (int f = 0; f < 8; ++f) {
    for (int r = 0; r < 8; ++r) {
      const int sq = f + 8 * r;
      s.cell[f][r].owner = pos.owner(sq);
      s.cell[f][r].boss = pos.is_boss(sq);
      s.cell[f][r].power = pos.power_at(sq);
      s.token[f][r] = (pos.tokens() >> sq) & 1;
    }
  }
  s.stm = pos.to_move();
  s.halfmove = pos.halfmove();
  s.ply = pos.ply();
  s.points[0] = pos.points(0);
  s.points[1] = pos.points(1);
  return s;
}

std::string SlowSeize::result() const {
  const seize::Rules& R = *rules;
  for (int p = 0; p < 2; ++p) {
    bool all_crowns = true;
    int other_bosses = 0, other_pieces = 0;
    for (int f = 0; f < 8; ++f) {
      for (int r = 0; r < 8; ++r) {
        if (listed(R.crown_squares, f, r) && cell[f][r].owner != p) all_crowns = false;
        if (cell[f][r].owner == 1 - p) {
          ++other_pieces;
          if (cell[f][r].boss) ++other_bosses;
        }
      }
    }
    const std::string who = std::to_string(p);
    if (R.win_crowns && all_crowns) return who + ":crowns";
    if (R.win_bosses && other_bosses == 0) return who + ":bosses";
    if (R.force_max_pieces > 0 && other_pieces <= R.force_max_pieces) return who + ":force";
  }
  if (raw_moves(*this).empty()) return std::to_string(1 - stm) + ":stalemate";
  if (R.total_plies > 0 && ply >= R.total_plies) {
    const int winner = points[0] > points[1] ? 0 : points[1] > points[0] ? 1 : R.ties_to;
    return std::to_string(winner) + ":limit";
  }
  if (R.halfmove_limit > 0 && halfmove >= R.halfmove_limit) return "draw:draw";
  return "";
}

std::vector<std::pair<int, int>> SlowSeize::moves() const {
  if (!result().empty()) return {};
  return raw_moves(*this);
}

void SlowSeize::play(int from, int to) {
  const seize::Rules& R = *rules;
  const int f0 = from % 8, r0 = from / 8, f = to % 8, r = to / 8;
  const int us = stm, them = 1 - stm;
  Cell c = cell[f0][r0];
  cell[f0][r0] = Cell{};
  // Power pickup on landing.
  if (!c.boss || R.boss_takes_power) {
    int gained = 0;
    if (token[f][r])
      gained = listed(R.plus_squares, f, r) ? 1 : 2;
    else if (!c.boss && R.crown_cap && listed(R.crown_squares, f, r))
      gained = 3;
    if (gained && (c.power == 0 || R.second_power_replaces)) {
      c.power = gained;
      if (R.tokens_consumed && token[f][r]) token[f][r] = false;
    }
  }
  cell[f][r] = c;
  // Sandwiches, then pins.
  bool take[8][8] = {};
  for (int d = 0; d < 8; ++d) {
    if (diagonal(d) && !R.capture_diagonally) continue;
    const int af = f + kDf[d], ar = r + kDr[d], bf = f + 2 * kDf[d], br = r + 2 * kDr[d];
    if (inside(af, ar) && inside(bf, br) && cell[af][ar].owner == them && cell[bf][br].owner == us)
      take[af][ar] = true;
  }
  if (R.pin) {
    for (int d = 0; d < 8; ++d) {
      const int gf = f + kDf[d], gr = r + kDr[d];
      if (!inside(gf, gr) || cell[gf][gr].owner != them || cell[gf][gr].boss || take[gf][gr])
        continue;
      bool boxed = true;
      for (int e = 0; e < 8; ++e) {
        const int nf = gf + kDf[e], nr = gr + kDr[e];
        if (inside(nf, nr) && cell[nf][nr].owner != us) boxed = false;
      }
      if (boxed) take[gf][gr] = true;
    }
  }
  bool captured = false;
  for (int ff = 0; ff < 8; ++ff) {
    for (int rr = 0; rr < 8; ++rr) {
      if (!take[ff][rr]) continue;
      const Cell& v = cell[ff][rr];
      points[us] += v.boss ? R.score_boss : v.power ? R.score_capped_guard : R.score_guard;
      cell[ff][rr] = Cell{};
      captured = true;
    }
  }
  if (R.halfmove_limit) halfmove = captured ? 0 : halfmove + 1;
  if (R.total_plies) ++ply;
  stm = them;
}

std::string SlowSeize::difference(const seize::Position& pos) const {
  for (int f = 0; f < 8; ++f) {
    for (int r = 0; r < 8; ++r) {
      const int sq = f + 8 * r;
      const Cell& c = cell[f][r];
      const std::string name =
          std::string(1, static_cast<char>('a' + f)) + static_cast<char>('1' + r);
      if (c.owner != pos.owner(sq)) return "owner on " + name;
      if (c.owner >= 0 && c.boss != pos.is_boss(sq)) return "piece type on " + name;
      if (c.owner >= 0 && c.power != pos.power_at(sq)) return "power on " + name;
      if (token[f][r] != static_cast<bool>((pos.tokens() >> sq) & 1)) return "token on " + name;
    }
  }
  if (stm != pos.to_move()) return "side to move";
  if (halfmove != pos.halfmove()) return "halfmove clock";
  if (ply != pos.ply()) return "ply";
  if (points[0] != pos.points(0) || points[1] != pos.points(1)) return "points";
  return "";
}

uint64_t slow_perft(const SlowSeize& s, int depth) {
  if (depth == 0) return 1;
  const auto moves = s.moves();
  if (depth == 1) return moves.size();
  uint64_t n = 0;
  for (const auto& [from, to] : moves) {
    SlowSeize child = s;
    child.play(from, to);
    n += slow_perft(child, depth - 1);
  }
  return n;
}

}  // namespace pincer::testing
