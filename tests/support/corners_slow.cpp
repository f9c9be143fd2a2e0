#include "tests/support/corners_slow.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace pincer::corners::testing {

namespace {

const char kSide[2] = {'W', 'B'};

std::string sq_name(int f, int r) { return std::string{char('a' + f), char('1' + r)}; }
std::string pt_name(int f, int r) { return sq_name(f, r) + "'"; }
bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }
bool is_point(int f, int r) { return f >= 0 && f < 7 && r >= 0 && r < 7; }

// The squares of point (f, r): the four squares around it.
std::vector<std::pair<int, int>> squares_of(int f, int r) {
  return {{f, r}, {f + 1, r}, {f, r + 1}, {f + 1, r + 1}};
}
// The corners of square (f, r) that exist.
std::vector<std::pair<int, int>> corners_of(int f, int r) {
  std::vector<std::pair<int, int>> out;
  for (int df = -1; df <= 0; ++df)
    for (int dr = -1; dr <= 0; ++dr)
      if (is_point(f + df, r + dr)) out.push_back({f + df, r + dr});
  return out;
}

}  // namespace

SlowCorners::SlowCorners(const CornersRules& rules) : rules_(rules) {
  for (auto& row : sq_)
    for (char& c : row) c = '.';
  for (auto& row : pt_)
    for (char& c : row) c = '.';
  const int back = rules.setup().back_rows(), rows = rules.setup().rows();
  for (int i = 0; i < rows; ++i) {
    for (int f = 0; f < 8; ++f) {
      sq_[back + i][f] = 'W';
      sq_[7 - back - i][f] = 'B';
    }
  }
  side_ = rules.first() == CornersRules::BLACK ? 1 : 0;
}

SlowCorners::SlowCorners(const CornersRules& rules, const std::string& text) : SlowCorners(rules) {
  std::istringstream in(text);
  std::string squares, points, side;
  in >> squares >> points >> side >> reserve_[0] >> reserve_[1] >> ply_;
  for (int row = 0; row < 8; ++row)
    for (int f = 0; f < 8; ++f) sq_[7 - row][f] = squares.at(row * 9 + f);
  for (int row = 0; row < 7; ++row)
    for (int f = 0; f < 7; ++f) pt_[6 - row][f] = points.at(row * 8 + f);
  side_ = side == "b" ? 1 : 0;
}

bool SlowCorners::guarded_by(char c, int f, int r) const {
  for (auto [pf, pr] : corners_of(f, r))
    if (pt_[pr][pf] == c) return true;
  return false;
}

bool SlowCorners::own_guarded(char c, int f, int r) const {
  return guarded_by(c, f, r) && !guarded_by(c == 'W' ? 'B' : 'W', f, r);
}

std::vector<std::string> SlowCorners::moves() const {
  const char me = kSide[side_], them = kSide[side_ ^ 1];
  std::vector<std::string> out;
  const int df[4] = {0, 1, 0, -1}, dr[4] = {1, 0, -1, 0};
  for (int r = 0; r < 8; ++r) {
    for (int f = 0; f < 8; ++f) {
      if (sq_[r][f] != me) continue;
      for (int d = 0; d < 4; ++d) {
        for (int x = f + df[d], y = r + dr[d]; on_board(x, y); x += df[d], y += dr[d]) {
          if (sq_[y][x] == them) break;
          if (sq_[y][x] == me) continue;
          out.push_back(sq_name(f, r) + "-" + sq_name(x, y));
          if (!own_guarded(me, x, y)) break;
        }
      }
      for (auto [pf, pr] : corners_of(f, r)) {
        if (pt_[pr][pf] != '.') continue;
        bool overlap = false;
        for (auto [x, y] : squares_of(pf, pr))
          if (guarded_by(them, x, y)) overlap = true;
        if (overlap && rules_.corner_move().no_overlap()) continue;
        out.push_back(sq_name(f, r) + "-" + pt_name(pf, pr));
      }
    }
  }
  const int most = std::min(reserve_[side_], rules_.divide().max_placements());
  for (int r = 0; r < 7; ++r) {
    for (int f = 0; f < 7; ++f) {
      if (pt_[r][f] != me) continue;
      std::vector<std::string> open;
      for (auto [x, y] : squares_of(f, r)) {
        if (sq_[y][x] != '.') continue;
        out.push_back(pt_name(f, r) + "-" + sq_name(x, y));
        open.push_back(sq_name(x, y));
      }
      std::sort(open.begin(), open.end());
      for (int subset = 0; subset < (1 << open.size()); ++subset) {
        std::string placed;
        int n = 0;
        for (size_t i = 0; i < open.size(); ++i)
          if (subset & (1 << i)) placed += open[i], ++n;
        if (n > most || (n == 0 && !rules_.divide().empty_allowed())) continue;
        out.push_back(pt_name(f, r) + "*" + placed);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> SlowCorners::legal() const {
  if (result().over) return {};
  return moves();
}

void SlowCorners::captures() {
  bool sq_gone[8][8] = {}, pt_gone[7][7] = {};
  for (int r = 0; r < 8; ++r) {
    for (int f = 0; f < 8; ++f) {
      const char c = sq_[r][f];
      if (c == '.') continue;
      const char enemy = c == 'W' ? 'B' : 'W';
      // 4.2: two or more enemy point pieces on its corners.
      std::vector<std::pair<int, int>> hits;
      for (auto [pf, pr] : corners_of(f, r))
        if (pt_[pr][pf] == enemy) hits.push_back({pf, pr});
      if (hits.size() >= 2) {
        sq_gone[r][f] = true;
        for (auto [pf, pr] : hits) pt_gone[pr][pf] = true;
      }
      // 4.4: a cross of square pieces of any side.
      if (rules_.capture().cross() && f >= 1 && f <= 6 && r >= 1 && r <= 6 &&
          sq_[r + 1][f] != '.' && sq_[r - 1][f] != '.' && sq_[r][f + 1] != '.' &&
          sq_[r][f - 1] != '.') {
        sq_gone[r][f] = sq_gone[r + 1][f] = sq_gone[r - 1][f] = true;
        sq_gone[r][f + 1] = sq_gone[r][f - 1] = true;
      }
    }
  }
  for (int r = 0; r < 7; ++r) {
    for (int f = 0; f < 7; ++f) {
      const char c = pt_[r][f];
      if (c == '.') continue;
      const char enemy = c == 'W' ? 'B' : 'W';
      // 4.3: two or more enemy square pieces on its squares.
      std::vector<std::pair<int, int>> hits;
      for (auto [x, y] : squares_of(f, r))
        if (sq_[y][x] == enemy) hits.push_back({x, y});
      if (hits.size() >= 2) {
        pt_gone[r][f] = true;
        for (auto [x, y] : hits) sq_gone[y][x] = true;
      }
    }
  }
  last_captured_.clear();
  for (int r = 0; r < 8; ++r) {
    for (int f = 0; f < 8; ++f) {
      if (!sq_gone[r][f]) continue;
      ++reserve_[sq_[r][f] == 'W' ? 0 : 1];
      sq_[r][f] = '.';
      last_captured_.push_back(sq_name(f, r));
    }
  }
  for (int r = 0; r < 7; ++r) {
    for (int f = 0; f < 7; ++f) {
      if (!pt_gone[r][f]) continue;
      ++reserve_[pt_[r][f] == 'W' ? 0 : 1];
      pt_[r][f] = '.';
      last_captured_.push_back(pt_name(f, r));
    }
  }
  std::sort(last_captured_.begin(), last_captured_.end());
}

void SlowCorners::play(const std::string& move) {
  const std::vector<std::string> all = legal();
  if (!std::binary_search(all.begin(), all.end(), move))
    throw std::runtime_error("slow corners: illegal move " + move);
  const char me = kSide[side_];
  const size_t star = move.find('*');
  if (star != std::string::npos) {
    const int pf = move[0] - 'a', pr = move[1] - '1';
    for (size_t i = star + 1; i < move.size(); i += 2) {
      sq_[move[i + 1] - '1'][move[i] - 'a'] = me;
      --reserve_[side_];
    }
    pt_[pr][pf] = '.';
    if (rules_.divide().divider_to_reserve()) ++reserve_[side_];
  } else {
    const std::string from = move.substr(0, move.find('-')), to = move.substr(move.find('-') + 1);
    const int ff = from[0] - 'a', fr = from[1] - '1', tf = to[0] - 'a', tr = to[1] - '1';
    if (from.size() == 3)
      pt_[fr][ff] = '.';
    else
      sq_[fr][ff] = '.';
    if (to.size() == 3)
      pt_[tr][tf] = me;
    else
      sq_[tr][tf] = me;
  }
  captures();
  side_ ^= 1;
  ++ply_;
}

SlowResult SlowCorners::result() const {
  const int mover = side_ ^ 1;
  const int far = mover == 0 ? 7 : 0;
  for (int f = 0; f < 8; ++f)
    if (sq_[far][f] == kSide[mover]) return {true, mover, "crossed"};
  if (moves().empty()) {
    const bool loses = rules_.no_moves() == CornersRules::LOSES;
    return {true, loses ? mover : -1, "no-moves"};
  }
  if (ply_ >= rules_.limit().plies()) return {true, -1, "limit"};
  return {};
}

std::string SlowCorners::text() const {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    out += std::string(sq_[r], 8);
    out += r ? '/' : ' ';
  }
  for (int r = 6; r >= 0; --r) {
    out += std::string(pt_[r], 7);
    out += r ? '/' : ' ';
  }
  out += side_ ? 'b' : 'w';
  out += " " + std::to_string(reserve_[0]) + " " + std::to_string(reserve_[1]) + " " +
         std::to_string(ply_);
  return out;
}

uint64_t SlowCorners::perft(int depth) const {
  if (depth == 0) return 1;
  const std::vector<std::string> all = legal();
  if (depth == 1) return all.size();
  uint64_t n = 0;
  for (const std::string& m : all) {
    SlowCorners child = *this;
    child.play(m);
    n += child.perft(depth - 1);
  }
  return n;
}

}  // namespace pincer::corners::testing
