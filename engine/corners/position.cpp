#include "engine/corners/position.h"

#include "engine/perft.h"

namespace pincer::corners {

// Search copies positions: keep them flat and small.
static_assert(sizeof(Position) <= 80, "corners::Position must stay cheap to copy");

namespace {

struct Zobrist {
  uint64_t square[2][64];
  uint64_t point[2][64];
  uint64_t reserve[2][64];
  uint64_t side;  // xored in when black is to move
};

const Zobrist& zobrist() {
  static const Zobrist z = [] {
    Zobrist t{};
    KeyStream keys(0xc0c0a5e5c0c0a5e5ULL);
    for (auto& a : t.square)
      for (auto& k : a) k = keys.next();
    for (auto& a : t.point)
      for (auto& k : a) k = keys.next();
    for (auto& a : t.reserve)
      for (auto& k : a) k = keys.next();
    t.side = keys.next();
    return t;
  }();
  return z;
}

// Directions 0 (north) and 1 (east) walk to higher indices.
inline int nearest(Bitboard b, int dir) { return dir < 2 ? lsb(b) : msb(b); }

inline int mirror_square(int sq) { return (sq & ~7) | (7 - (sq & 7)); }
inline int flip_square(int sq) { return sq ^ 56; }
inline int mirror_point(int pt) { return (pt & ~7) | (6 - (pt & 7)); }
inline int flip_point(int pt) { return (pt & 7) | ((6 - (pt >> 3)) << 3); }

// The four squares of point `pt` as a 4-bit mask of those in `b`.
inline int square_mask(Bitboard b, int pt) {
  return static_cast<int>(((b >> pt) & 1) | ((b >> (pt + 1)) & 1) << 1 |
                          ((b >> (pt + 8)) & 1) << 2 | ((b >> (pt + 9)) & 1) << 3);
}

}  // namespace

const char* reason_name(Reason r) {
  switch (r) {
    case Reason::kNone:
      return "";
    case Reason::kCrossed:
      return "crossed";
    case Reason::kNoMoves:
      return "no-moves";
    case Reason::kLimit:
      return "limit";
  }
  return "";
}

Move decode(int action) {
  Move m;
  if (action < kCornerBase) {
    m.kind = Kind::kRun;
    m.from = action / 28;
    const int dir = action % 28 / 7, dist = action % 7 + 1;
    m.to = m.from + kRunDelta[dir] * dist;
    m.mask = dir;
  } else if (action < kStepBase) {
    m.kind = Kind::kToPoint;
    m.from = (action - kCornerBase) >> 2;
    m.to = m.from - kCornerOffset[action & 3];
    m.mask = action & 3;
  } else if (action < kDivideBase) {
    m.kind = Kind::kToSquare;
    m.from = (action - kStepBase) >> 2;
    m.to = m.from + kCornerOffset[action & 3];
    m.mask = action & 3;
  } else {
    m.kind = Kind::kDivide;
    m.from = (action - kDivideBase) >> 4;
    m.mask = action & 15;
    m.to = m.from;
  }
  return m;
}

int transform_action(int action, bool mirror, bool flip) {
  const Move m = decode(action);
  const int kx = (mirror ? 1 : 0) | (flip ? 2 : 0);
  auto sq = [&](int s) {
    if (mirror) s = mirror_square(s);
    if (flip) s = flip_square(s);
    return s;
  };
  auto pt = [&](int p) {
    if (p < 0 || p > 63 || !(kPoints & bit(p))) return -1;
    if (mirror) p = mirror_point(p);
    if (flip) p = flip_point(p);
    return p;
  };
  switch (m.kind) {
    case Kind::kRun: {
      int dir = m.mask;
      if (mirror && (dir & 1)) dir ^= 2;
      if (flip && !(dir & 1)) dir ^= 2;
      return run_action(sq(m.from), dir, action % 7 + 1);
    }
    case Kind::kToPoint:
      return to_point_action(sq(m.from), m.mask ^ kx);
    case Kind::kToSquare: {
      const int p = pt(m.from);
      return p < 0 ? -1 : to_square_action(p, m.mask ^ kx);
    }
    case Kind::kDivide: {
      const int p = pt(m.from);
      if (p < 0) return -1;
      int mask = 0;
      for (int k = 0; k < 4; ++k)
        if (m.mask & (1 << k)) mask |= 1 << (k ^ kx);
      return divide_action(p, mask);
    }
  }
  return -1;
}

Position Position::empty(const Rules& rules) {
  Position p;
  p.rules_ = &rules;
  const Zobrist& z = zobrist();
  p.key_ = z.reserve[0][0] ^ z.reserve[1][0];
  p.side_ = kWhite;
  p.set_side(rules.first);
  return p;
}

Position Position::start(const Rules& rules) {
  Position p = empty(rules);
  p.toggle_squares(kWhite, rules.start[kWhite]);
  p.toggle_squares(kBlack, rules.start[kBlack]);
  p.finish();
  return p;
}

void Position::toggle_squares(int player, Bitboard b) {
  sq_[player] ^= b;
  const Zobrist& z = zobrist();
  while (b) key_ ^= z.square[player][pop_lsb(b)];
}

void Position::toggle_points(int player, Bitboard b) {
  pt_[player] ^= b;
  const Zobrist& z = zobrist();
  while (b) key_ ^= z.point[player][pop_lsb(b)];
}

void Position::put_square(int sq, int player) {
  for (int p = 0; p < 2; ++p)
    if (sq_[p] & bit(sq)) toggle_squares(p, bit(sq));
  if (player >= 0) toggle_squares(player, bit(sq));
}

void Position::put_point(int pt, int player) {
  for (int p = 0; p < 2; ++p)
    if (pt_[p] & bit(pt)) toggle_points(p, bit(pt));
  if (player >= 0) toggle_points(player, bit(pt));
}

void Position::set_reserves(int white, int black) {
  const Zobrist& z = zobrist();
  key_ ^= z.reserve[0][reserve_[0]] ^ z.reserve[1][reserve_[1]];
  reserve_[0] = static_cast<uint8_t>(white);
  reserve_[1] = static_cast<uint8_t>(black);
  key_ ^= z.reserve[0][reserve_[0]] ^ z.reserve[1][reserve_[1]];
}

void Position::set_side(int player) {
  if (player != side_) key_ ^= zobrist().side;
  side_ = static_cast<uint8_t>(player);
}

void Position::capture_patterns(Bitboard& squares, Bitboard& points) const {
  squares = points = 0;
  for (int x = 0; x < 2; ++x) {
    const int y = x ^ 1;
    // 4.2: a square piece with enemy point pieces on two or more of its corners.
    const Bitboard sq_caught = sq_[x] & guarded_twice(pt_[y]);
    squares |= sq_caught;
    points |= pt_[y] & corners_of(sq_caught);
    // 4.3: a point piece with enemy square pieces on two or more of its squares.
    const Bitboard pt_caught = pt_[x] & corners_twice(sq_[y]);
    points |= pt_caught;
    squares |= sq_[y] & guarded(pt_caught);
  }
  if (rules_->cross) {
    // 4.4: a square piece on b2..g7 boxed in by square pieces on all four sides.
    const Bitboard occ = sq_[0] | sq_[1];
    const Bitboard c = occ & kInner & (occ << 8) & (occ >> 8) & (occ << 1) & (occ >> 1);
    squares |= c | c << 8 | c >> 8 | c << 1 | c >> 1;
  }
}

void Position::finish() {
  const int mover = side_ ^ 1;
  reason_ = Reason::kNone;
  winner_ = -1;
  if (sq_[mover] & rules_->far_rank[mover]) {
    reason_ = Reason::kCrossed;
    winner_ = static_cast<int8_t>(mover);
  } else if (!has_move()) {
    reason_ = Reason::kNoMoves;
    winner_ = rules_->no_moves_loses ? static_cast<int8_t>(mover) : -1;
  } else if (ply_ >= rules_->limit) {
    reason_ = Reason::kLimit;
  }
}

bool Position::has_move() const {
  const int us = side_;
  const Bitboard empty = empty_squares();
  if (pt_[us]) {
    if (rules_->empty_allowed) return true;
    if (guarded(pt_[us]) & empty) return true;  // a step to a square (or a divide onto it)
  }
  const Bitboard own = sq_[us];
  if (!own) return false;
  // A neighbouring empty square is always a landing.
  if (((own << 8) | (own >> 8) | ((own << 1) & ~kFileA) | ((own >> 1) & ~kFileH)) & empty)
    return true;
  return count_actions() > 0;
}

void Position::generate(ActionList& out) const {
  const Rules& r = *rules_;
  out.size = 0;
  if (reason_ != Reason::kNone) return;
  const int us = side_, them = us ^ 1;
  const Bitboard own = sq_[us], empty = empty_squares();
  const Bitboard passable = own | (empty & own_guarded(us));
  auto push = [&out](int a) { out.actions[out.size++] = static_cast<int16_t>(a); };
  for (Bitboard b = own; b;) {
    const int from = pop_lsb(b);
    for (int d = 0; d < 4; ++d) {
      const Bitboard ray = r.ray[d][from];
      const Bitboard stop = ray & ~passable;
      const Bitboard walk = stop ? ray & ~r.ray[d][nearest(stop, d)] : ray;
      const int step = d & 1 ? 1 : 8;
      for (Bitboard land = walk & empty; land;) {
        const int to = pop_lsb(land);
        push(run_action(from, d, (to > from ? to - from : from - to) / step));
      }
    }
  }
  Bitboard free_points = empty_points();
  if (r.no_overlap) free_points &= ~corners_of(guarded(pt_[them]));
  for (int k = 0; k < 4; ++k) {
    for (Bitboard t = (own >> kCornerOffset[k]) & free_points; t;) {
      const int to = pop_lsb(t);
      push(to_point_action(to + kCornerOffset[k], k));
    }
  }
  const Bitboard mine = pt_[us];
  for (int k = 0; k < 4; ++k) {
    for (Bitboard t = (mine << kCornerOffset[k]) & empty; t;) {
      const int to = pop_lsb(t);
      push(to_square_action(to - kCornerOffset[k], k));
    }
  }
  const int cap = std::min<int>(reserve_[us], r.max_placements);
  for (Bitboard b = mine; b;) {
    const int p = pop_lsb(b);
    const int open = square_mask(empty, p);
    // Every subset of the open squares (the empty one too), at most `cap` of them.
    for (int m = open;; m = (m - 1) & open) {
      if (popcount(m) <= cap && (m || r.empty_allowed)) push(divide_action(p, m));
      if (!m) break;
    }
  }
}

int Position::count_actions() const {
  const Rules& r = *rules_;
  if (reason_ != Reason::kNone) return 0;
  const int us = side_, them = us ^ 1;
  const Bitboard own = sq_[us], empty = empty_squares();
  const Bitboard passable = own | (empty & own_guarded(us));
  int n = 0;
  for (Bitboard b = own; b;) {
    const int from = pop_lsb(b);
    for (int d = 0; d < 4; ++d) {
      const Bitboard ray = r.ray[d][from];
      const Bitboard stop = ray & ~passable;
      const Bitboard walk = stop ? ray & ~r.ray[d][nearest(stop, d)] : ray;
      n += popcount(walk & empty);
    }
  }
  Bitboard free_points = empty_points();
  if (r.no_overlap) free_points &= ~corners_of(guarded(pt_[them]));
  for (int k = 0; k < 4; ++k) n += popcount((own >> kCornerOffset[k]) & free_points);
  const Bitboard mine = pt_[us];
  for (int k = 0; k < 4; ++k) n += popcount((mine << kCornerOffset[k]) & empty);
  const int cap = std::min<int>(reserve_[us], 4);
  for (Bitboard b = mine; b;) n += r.divide_count[popcount(square_mask(empty, pop_lsb(b)))][cap];
  return n;
}

bool Position::is_legal(int action) const {
  if (reason_ != Reason::kNone || action < 0 || action >= kNumActions) return false;
  ActionList list;
  generate(list);
  for (int a : list)
    if (a == action) return true;
  return false;
}

void Position::apply(int action) {
  const Rules& r = *rules_;
  const int us = side_, them = us ^ 1;
  const Move m = decode(action);
  int reserve[2] = {reserve_[0], reserve_[1]};
  switch (m.kind) {
    case Kind::kRun:
      toggle_squares(us, bit(m.from) | bit(m.to));
      break;
    case Kind::kToPoint:
      toggle_squares(us, bit(m.from));
      toggle_points(us, bit(m.to));
      break;
    case Kind::kToSquare:
      toggle_points(us, bit(m.from));
      toggle_squares(us, bit(m.to));
      break;
    case Kind::kDivide: {
      Bitboard placed = 0;
      for (int k = 0; k < 4; ++k)
        if (m.mask & (1 << k)) placed |= bit(m.from + kCornerOffset[k]);
      toggle_squares(us, placed);
      toggle_points(us, bit(m.from));
      reserve[us] -= popcount(placed);
      if (r.divider_to_reserve) ++reserve[us];
      break;
    }
  }
  Bitboard cap_sq, cap_pt;
  capture_patterns(cap_sq, cap_pt);
  for (int p = 0; p < 2; ++p) {
    const Bitboard s = sq_[p] & cap_sq, t = pt_[p] & cap_pt;
    if (s) toggle_squares(p, s);
    if (t) toggle_points(p, t);
    reserve[p] += popcount(s) + popcount(t);
  }
  cap_sq_ = cap_sq;
  cap_pt_ = cap_pt;
  if (reserve[0] != reserve_[0] || reserve[1] != reserve_[1]) set_reserves(reserve[0], reserve[1]);
  key_ ^= zobrist().side;
  side_ = static_cast<uint8_t>(them);
  ++ply_;
  finish();
}

bool Position::operator==(const Position& o) const {
  return sq_[0] == o.sq_[0] && sq_[1] == o.sq_[1] && pt_[0] == o.pt_[0] && pt_[1] == o.pt_[1] &&
         reserve_[0] == o.reserve_[0] && reserve_[1] == o.reserve_[1] && side_ == o.side_ &&
         ply_ == o.ply_ && key_ == o.key_ && reason_ == o.reason_ && winner_ == o.winner_;
}

uint64_t perft(const Position& pos, int depth) {
  return bulk_perft<Position, ActionList>(pos, depth);
}

}  // namespace pincer::corners
