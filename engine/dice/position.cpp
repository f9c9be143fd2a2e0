#include "engine/dice/position.h"

#include <cassert>

#include "engine/perft.h"

namespace pincer::dice {

namespace {

struct Keys {
  uint64_t die[2][kKinds][kMaxSquares];
  uint64_t black_to_move;
  Keys() {
    KeyStream stream(0xd1ce5eed00000004ULL);
    for (auto& side : die)
      for (auto& kind : side)
        for (uint64_t& k : kind) k = stream.next();
    black_to_move = stream.next();
  }
};

const Keys& keys() {
  static const Keys k;
  return k;
}
// Built at start-up like the move tables, so that no search pays for the first use.
const Keys& kKeysAtStartUp = keys();

// Directions that raise the square index (their nearest blocker is the lowest bit).
constexpr bool kRising[8] = {true, true, true, false, false, false, false, true};

inline Bitboard slide(const Rules& r, int sq, Bitboard occ, int d) {
  const Bitboard ray = r.ray[d][sq];
  const Bitboard blockers = ray & occ;
  if (!blockers) return ray;
  return ray ^ r.ray[d][kRising[d] ? lsb(blockers) : msb(blockers)];
}

inline Bitboard diagonal(const Rules& r, int sq, Bitboard occ) {
  return slide(r, sq, occ, kNorthEast) | slide(r, sq, occ, kSouthEast) |
         slide(r, sq, occ, kSouthWest) | slide(r, sq, occ, kNorthWest);
}

inline Bitboard orthogonal(const Rules& r, int sq, Bitboard occ) {
  return slide(r, sq, occ, kNorth) | slide(r, sq, occ, kEast) | slide(r, sq, occ, kSouth) |
         slide(r, sq, occ, kWest);
}

}  // namespace

const char* reason_name(Reason r) {
  switch (r) {
    case Reason::kNone:
      return "";
    case Reason::kKing:
      return "king";
    case Reason::kPoints:
      return "points";
    case Reason::kTimed:
      return "timed";
    case Reason::kNoMoves:
      return "no-moves";
    case Reason::kLimit:
      return "limit";
  }
  return "";
}

Position Position::empty(const Rules& rules) {
  Position p;
  p.rules_ = &rules;
  return p;
}

Position Position::start(const Rules& r, const Setup& setup) {
  Position p = empty(r);
  const int n = r.size;
  for (int side = 0; side < 2; ++side) {
    const int back = side == kWhite ? 0 : n - 1, front = side == kWhite ? 1 : n - 2;
    for (int f = 0; f < n; ++f) {
      p.put(r.make_square(f, front), side, r.pawn_face);
      p.put(r.make_square(f, back), side, f == r.king_file ? kKing : setup.back[side][f]);
    }
  }
  p.set_side(setup.first);
  p.finish();
  return p;
}

int Position::kind_at(int sq) const {
  const int side = owner(sq);
  if (side < 0) return -1;
  for (int k = 0; k < kKinds; ++k)
    if (dice_[side][k] & bit(sq)) return k;
  return -1;
}

void Position::toggle(int sq, int side, int kind) {
  dice_[side][kind] ^= bit(sq);
  occ_[side] ^= bit(sq);
  key_ ^= keys().die[side][kind][sq];
}

void Position::put(int sq, int side, int kind) {
  const int old_side = owner(sq);
  if (old_side >= 0) toggle(sq, old_side, kind_at(sq));
  if (side >= 0) toggle(sq, side, kind);
}

void Position::set_side(int side) {
  if (side != side_) key_ ^= keys().black_to_move;
  side_ = static_cast<uint8_t>(side);
}

void Position::set_counters(int ply, int halfmove, int white_points, int black_points) {
  ply_ = static_cast<uint16_t>(ply);
  halfmove_ = static_cast<uint16_t>(halfmove);
  points_[0] = static_cast<uint16_t>(white_points);
  points_[1] = static_cast<uint16_t>(black_points);
}

void Position::finish() { decide(!rules_->scored() && !dice_[side_][kKing]); }

// Calls visit(from, targets) for every die of the side to move with at least one target; stops
// and returns true as soon as visit returns true.
template <typename Visit>
bool Position::visit_targets(int us, Visit&& visit) const {
  const Rules& r = *rules_;
  const int them = us ^ 1;
  const Bitboard occ = occupied(), not_own = r.board & ~occ_[us];
  const auto& my = dice_[us];

  Bitboard pawn_blockers = occ_[us];
  if (r.pawn_wall) pawn_blockers |= dice_[them][1] | dice_[them][2];
  for (Bitboard b = my[1] | my[2]; b;) {
    const int sq = pop_lsb(b);
    const int rank = r.rank_of(sq);
    if (rank == r.last_rank(us)) continue;
    const int to = us == kWhite ? sq + r.size : sq - r.size;
    if (!(pawn_blockers & bit(to)) && visit(sq, bit(to))) return true;
  }
  for (Bitboard b = my[3]; b;) {
    const int sq = pop_lsb(b);
    const Bitboard t = r.knight[sq] & not_own;
    if (t && visit(sq, t)) return true;
  }
  for (Bitboard b = my[kKing]; b;) {
    const int sq = pop_lsb(b);
    const Bitboard t = r.king[sq] & not_own;
    if (t && visit(sq, t)) return true;
  }
  for (Bitboard b = my[4] | my[6]; b;) {
    const int sq = pop_lsb(b);
    Bitboard t = diagonal(r, sq, occ);
    if (my[6] & bit(sq)) t |= orthogonal(r, sq, occ);
    t &= not_own;
    if (t && visit(sq, t)) return true;
  }
  for (Bitboard b = my[5]; b;) {
    const int sq = pop_lsb(b);
    const Bitboard t = orthogonal(r, sq, occ) & not_own;
    if (t && visit(sq, t)) return true;
  }
  return false;
}

void Position::generate(ActionList& out) const {
  out.size = 0;
  if (over()) return;
  const Rules& r = *rules_;
  visit_targets(side_, [&](int from, Bitboard targets) {
    while (targets)
      out.actions[out.size++] = static_cast<int16_t>(make_action(r, from, pop_lsb(targets)));
    return false;
  });
}

int Position::count_actions() const {
  if (over()) return 0;
  int count = 0;
  visit_targets(side_, [&](int, Bitboard targets) {
    count += popcount(targets);
    return false;
  });
  return count;
}

bool Position::has_action() const {
  return visit_targets(side_, [](int, Bitboard) { return true; });
}

int Position::mobility(int side, Bitboard& reach) const {
  int count = 0;
  reach = 0;
  visit_targets(side, [&](int, Bitboard targets) {
    count += popcount(targets);
    reach |= targets;
    return false;
  });
  return count;
}

bool Position::is_legal(int action) const {
  if (over() || action < 0 || action >= num_actions(*rules_)) return false;
  ActionList list;
  generate(list);
  for (int a : list)
    if (a == action) return true;
  return false;
}

void Position::play(int action, bool check_moves) {
  const Rules& r = *rules_;
  const int from = action_from(r, action), to = action_to(r, action);
  const int us = side_, them = us ^ 1;
  int kind = -1;
  for (int k = 0; k < kKinds; ++k)
    if (dice_[us][k] & bit(from)) kind = k;
  assert(kind >= 0);
  bool king_taken = false;
  last_captured_ = -1;
  if (occ_[them] & bit(to)) {
    int taken = 0;
    for (int k = 0; k < kKinds; ++k)
      if (dice_[them][k] & bit(to)) taken = k;
    toggle(to, them, taken);
    king_taken = taken == kKing;
    last_captured_ = static_cast<int8_t>(to);
    halfmove_ = 0;
    if (r.scored()) points_[us] += king_taken ? r.king_points : r.die_points;
  } else {
    ++halfmove_;
  }
  int next = kind;
  if (kind != kKing) {
    const bool promotes = r.promotion && kind <= 2 && r.rank_of(to) == r.last_rank(us);
    next = promotes ? 6 : decayed(kind);
  }
  toggle(from, us, kind);
  toggle(to, us, next);
  ++ply_;
  side_ = static_cast<uint8_t>(them);
  key_ ^= keys().black_to_move;
  decide(king_taken && !r.scored(), check_moves);
}

void Position::decide(bool king_taken, bool check_moves) {
  const Rules& r = *rules_;
  const int mover = side_ ^ 1;
  reason_ = Reason::kNone;
  winner_ = -1;
  if (king_taken) {
    reason_ = Reason::kKing, winner_ = static_cast<int8_t>(mover);
  } else if (r.scored() && points_[mover] >= r.score_target) {
    reason_ = Reason::kPoints, winner_ = static_cast<int8_t>(mover);
  } else if (r.timed_plies > 0 && ply_ >= r.timed_plies) {
    reason_ = Reason::kTimed;
    const int a = popcount(occ_[0]), b = popcount(occ_[1]);
    winner_ = static_cast<int8_t>(a > b ? 0 : b > a ? 1 : -1);
  } else if (check_moves && !has_action()) {
    reason_ = Reason::kNoMoves;
    winner_ = static_cast<int8_t>(r.no_moves == NoMoves::kLoses ? mover : -1);
  } else if (halfmove_ >= r.capture_free_plies) {
    reason_ = Reason::kLimit;
  }
}

bool Position::operator==(const Position& o) const {
  if (side_ != o.side_ || ply_ != o.ply_ || halfmove_ != o.halfmove_ ||
      points_[0] != o.points_[0] || points_[1] != o.points_[1])
    return false;
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < kKinds; ++k)
      if (dice_[s][k] != o.dice_[s][k]) return false;
  return true;
}

uint64_t perft(const Position& pos, int depth) {
  return bulk_perft<Position, ActionList, &Position::apply_for_perft>(pos, depth);
}

}  // namespace pincer::dice
