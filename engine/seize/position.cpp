#include "engine/seize/position.h"

namespace pincer::seize {

namespace {

struct Zobrist {
  uint64_t piece[2][2][4][64];  // [player][is boss][power][square]
  uint64_t token[64];
  uint64_t side;
};

// Built at start-up like the move tables, so the hot path has no lazy-initialisation check.
const Zobrist kZobrist = [] {
  Zobrist t{};
  KeyStream keys(0x5e12e5e12e5e12e5ULL);
  for (auto& a : t.piece)
    for (auto& b : a)
      for (auto& c : b)
        for (auto& k : c) k = keys.next();
  for (auto& k : t.token) k = keys.next();
  t.side = keys.next();
  return t;
}();

const Zobrist& zobrist() { return kZobrist; }

}  // namespace

const char* reason_name(Reason r) {
  switch (r) {
    case Reason::kNone:
      return "";
    case Reason::kCrowns:
      return "crowns";
    case Reason::kBosses:
      return "bosses";
    case Reason::kForce:
      return "force";
    case Reason::kStalemate:
      return "stalemate";
    case Reason::kLimit:
      return "limit";
    case Reason::kDraw:
      return "draw";
  }
  return "";
}

Position Position::empty(const Rules& rules, int to_move) {
  Position p;
  p.rules_ = &rules;
  p.stm_ = static_cast<uint8_t>(to_move);
  p.key_ = to_move ? zobrist().side : 0;
  return p;
}

Position Position::start(const Rules& rules) {
  Position p = empty(rules, rules.first_player);
  for (int player = 0; player < 2; ++player) {
    for (Bitboard b = rules.start_bosses[player]; b;) p.put(pop_lsb(b), player, true, kNoPower);
    for (Bitboard b = rules.start_guards[player]; b;) p.put(pop_lsb(b), player, false, kNoPower);
  }
  p.set_tokens(rules.marked_squares());
  return p;
}

Power Position::power_at(int sq) const {
  const Bitboard b = bit(sq);
  if (power_[kPlus] & b) return kPlus;
  if (power_[kCross] & b) return kCross;
  if (power_[kCrown] & b) return kCrown;
  return kNoPower;
}

uint64_t Position::piece_key(int sq) const {
  const int player = owner(sq);
  if (player < 0) return 0;
  return zobrist().piece[player][is_boss(sq)][power_at(sq)][sq];
}

void Position::put(int sq, int player, bool boss, Power power) {
  const Bitboard b = bit(sq);
  key_ ^= piece_key(sq);
  occ_[0] &= ~b, occ_[1] &= ~b, boss_ &= ~b;
  for (Bitboard& p : power_) p &= ~b;
  if (player >= 0) {
    occ_[player] |= b;
    if (boss) boss_ |= b;
    if (power != kNoPower) power_[power] |= b;
  }
  key_ ^= piece_key(sq);
}

void Position::set_tokens(Bitboard tokens) {
  for (Bitboard b = tokens_ ^ tokens; b;) key_ ^= zobrist().token[pop_lsb(b)];
  tokens_ = tokens;
}

void Position::set_counters(int halfmove, int ply, int points_bottom, int points_top) {
  halfmove_ = static_cast<uint16_t>(halfmove);
  ply_ = static_cast<uint16_t>(ply);
  points_[0] = static_cast<uint8_t>(points_bottom);
  points_[1] = static_cast<uint8_t>(points_top);
}

Bitboard Position::boss_targets(int sq, Bitboard occ) const {
  const Tables& t = tables();
  if (rules_->boss_range == 2) {
    Bitboard out = 0;
    for (int d = 0; d < 8; ++d) {
      const Bitboard s1 = t.step[sq][d];
      if (s1 && !(s1 & occ)) out |= s1 | (t.jump[sq][d] & ~occ);
    }
    return out;
  }
  Bitboard out = 0;
  for (int d = 0; d < 8; ++d) {
    Bitboard reach = slide(t, sq, d, occ);
    // Keep the first boss_range squares of the ray.
    Bitboard limit = 0, r = t.ray[sq][d];
    for (int i = 0; i < rules_->boss_range && r; ++i) {
      const Bitboard next = kDirPositive[d] ? (r & -r) : bit(msb(r));
      limit |= next;
      r &= ~next;
    }
    out |= reach & limit;
  }
  return out;
}

Bitboard Position::guard_steps(int sq, Bitboard occ) const {
  const Tables& t = tables();
  return (rules_->guard_steps_diagonally ? t.king[sq] : t.orth[sq]) & ~occ;
}

Bitboard Position::targets(int sq) const {
  const Tables& t = tables();
  const Bitboard occ = occupied();
  const Bitboard b = bit(sq);
  Bitboard out = 0;
  const Power power = power_at(sq);
  if (power == kNoPower || rules_->power_adds) {
    out = (boss_ & b) ? boss_targets(sq, occ) : guard_steps(sq, occ);
  }
  switch (power) {
    case kNoPower:
      break;
    case kPlus:
      out |= rook_targets(t, sq, occ);
      break;
    case kCross:
      out |= bishop_targets(t, sq, occ);
      break;
    case kCrown:
      out |= boss_targets(sq, occ);
      break;
  }
  return out;
}

Position::Groups Position::groups() const {
  const Rules& r = *rules_;
  const Bitboard mine = occ_[stm_];
  const Bitboard powered = power_[kPlus] | power_[kCross] | power_[kCrown];
  Groups g;
  g.steppers = mine & ~boss_ & ~powered;
  if (r.power_adds) {
    g.bosslike = mine & boss_ & ~powered;
    g.others = mine & powered;
  } else {
    g.bosslike = (mine & boss_ & ~powered) | (mine & power_[kCrown]);
    g.others = mine & (power_[kPlus] | power_[kCross]);
  }
  if (r.boss_range != 2) g.others |= g.bosslike, g.bosslike = 0;
  return g;
}

namespace {

constexpr int kStep = 1, kJump = 2;

template <int D>
inline void emit_direction(Bitboard steppers, Bitboard bosslike, Bitboard empty, MoveList& list) {
  auto emit = [&list](Bitboard to_set, int distance) {
    for (; to_set;) {
      const int to = pop_lsb(to_set);
      list.moves[list.size++] =
          Move{static_cast<uint8_t>(to - distance * kDirDelta[D]), static_cast<uint8_t>(to)};
    }
  };
  emit(shift<D>(steppers) & empty, kStep);
  const Bitboard first = shift<D>(bosslike) & empty;
  emit(first, kStep);
  emit(shift<D>(first) & empty, kJump);
}

template <int D>
inline int count_direction(Bitboard steppers, Bitboard bosslike, Bitboard empty) {
  const Bitboard first = shift<D>(bosslike) & empty;
  return popcount(shift<D>(steppers) & empty) + popcount(first) + popcount(shift<D>(first) & empty);
}

}  // namespace

void Position::generate(MoveList& list) const {
  list.size = 0;
  const Groups g = groups();
  const Bitboard empty = kBoard & ~occupied();
  const Bitboard diag_steppers = rules_->guard_steps_diagonally ? g.steppers : 0;
  emit_direction<kNorth>(g.steppers, g.bosslike, empty, list);
  emit_direction<kEast>(g.steppers, g.bosslike, empty, list);
  emit_direction<kSouth>(g.steppers, g.bosslike, empty, list);
  emit_direction<kWest>(g.steppers, g.bosslike, empty, list);
  emit_direction<kNorthEast>(diag_steppers, g.bosslike, empty, list);
  emit_direction<kSouthEast>(diag_steppers, g.bosslike, empty, list);
  emit_direction<kSouthWest>(diag_steppers, g.bosslike, empty, list);
  emit_direction<kNorthWest>(diag_steppers, g.bosslike, empty, list);
  for (Bitboard pieces = g.others; pieces;) {
    const int from = pop_lsb(pieces);
    for (Bitboard tg = targets(from); tg;) {
      list.moves[list.size++] = Move{static_cast<uint8_t>(from), static_cast<uint8_t>(pop_lsb(tg))};
    }
  }
}

bool Position::has_legal_move() const {
  for (Bitboard pieces = occ_[stm_]; pieces;) {
    if (targets(pop_lsb(pieces))) return true;
  }
  return false;
}

int Position::count_moves() const {
  const Groups g = groups();
  const Bitboard empty = kBoard & ~occupied();
  const Bitboard diag_steppers = rules_->guard_steps_diagonally ? g.steppers : 0;
  int n = count_direction<kNorth>(g.steppers, g.bosslike, empty) +
          count_direction<kEast>(g.steppers, g.bosslike, empty) +
          count_direction<kSouth>(g.steppers, g.bosslike, empty) +
          count_direction<kWest>(g.steppers, g.bosslike, empty) +
          count_direction<kNorthEast>(diag_steppers, g.bosslike, empty) +
          count_direction<kSouthEast>(diag_steppers, g.bosslike, empty) +
          count_direction<kSouthWest>(diag_steppers, g.bosslike, empty) +
          count_direction<kNorthWest>(diag_steppers, g.bosslike, empty);
  for (Bitboard pieces = g.others; pieces;) n += popcount(targets(pop_lsb(pieces)));
  return n;
}

void Position::apply(Move m) {
  const Tables& t = tables();
  const Zobrist& z = zobrist();
  const Rules& r = *rules_;
  const int us = stm_, them = us ^ 1;
  const Bitboard from = bit(m.from), to = bit(m.to), both = from | to;

  const bool boss = boss_ & from;
  Power power = power_at(m.from);
  key_ ^= z.piece[us][boss][power][m.from];
  occ_[us] ^= both;
  if (boss) boss_ ^= both;
  if (power != kNoPower) power_[power] ^= both;

  // Marked squares hand out powers on landing.
  if (!boss || r.boss_takes_power) {
    Power gained = kNoPower;
    if (tokens_ & to)
      gained = (r.plus_squares & to) ? kPlus : kCross;
    else if (!boss && r.crown_cap && (r.crown_squares & to))
      gained = kCrown;
    if (gained != kNoPower && (power == kNoPower || r.second_power_replaces)) {
      if (power != kNoPower) power_[power] ^= to;
      power_[gained] |= to;
      power = gained;
      if (r.tokens_consumed && (tokens_ & to)) {
        tokens_ ^= to;
        key_ ^= z.token[m.to];
      }
    }
  }
  key_ ^= z.piece[us][boss][power][m.to];

  // Sandwiches along the capture lines, then pins around the landing square.
  Bitboard captured = 0;
  const int step = r.capture_diagonally ? 1 : 2;
  for (int d = 0; d < 8; d += step) {
    const Bitboard adj = t.step[m.to][d];
    if ((adj & occ_[them]) && (t.jump[m.to][d] & occ_[us])) captured |= adj;
  }
  if (r.pin) {
    for (Bitboard cand = t.king[m.to] & occ_[them] & ~boss_ & ~captured; cand;) {
      const int sq = pop_lsb(cand);
      if (!(t.king[sq] & ~occ_[us])) captured |= bit(sq);
    }
  }
  for (Bitboard c = captured; c;) {
    const int sq = pop_lsb(c);
    const Bitboard b = bit(sq);
    key_ ^= piece_key(sq);
    if (boss_ & b)
      points_[us] += r.score_boss;
    else if ((power_[kPlus] | power_[kCross] | power_[kCrown]) & b)
      points_[us] += r.score_capped_guard;
    else
      points_[us] += r.score_guard;
    occ_[them] &= ~b;
    boss_ &= ~b;
    for (Bitboard& p : power_) p &= ~b;
  }
  last_captured_ = captured;

  if (r.halfmove_limit) halfmove_ = captured ? 0 : halfmove_ + 1;
  if (r.total_plies) ++ply_;
  stm_ = static_cast<uint8_t>(them);
  key_ ^= z.side;
}

Reason Position::board_win(int player) const {
  const Rules& r = *rules_;
  const int other = player ^ 1;
  if (r.win_crowns && !(r.crown_squares & ~occ_[player])) return Reason::kCrowns;
  if (r.win_bosses && !(occ_[other] & boss_)) return Reason::kBosses;
  if (r.force_max_pieces && popcount(occ_[other]) <= r.force_max_pieces) return Reason::kForce;
  return Reason::kNone;
}

bool Position::decided_without_stalemate() const {
  const Rules& r = *rules_;
  if (board_win(0) != Reason::kNone || board_win(1) != Reason::kNone) return true;
  return (r.total_plies && ply_ >= r.total_plies) ||
         (r.halfmove_limit && halfmove_ >= r.halfmove_limit);
}

Result Position::result() const {
  const Rules& r = *rules_;
  for (int player : {kBottom, kTop}) {
    const Reason why = board_win(player);
    if (why != Reason::kNone) return {why, player};
  }
  if (!has_legal_move()) return {Reason::kStalemate, stm_ ^ 1};
  if (r.total_plies && ply_ >= r.total_plies) {
    const int winner = points_[0] > points_[1] ? 0 : points_[1] > points_[0] ? 1 : r.ties_to;
    return {Reason::kLimit, winner};
  }
  if (r.halfmove_limit && halfmove_ >= r.halfmove_limit) return {Reason::kDraw, -1};
  return {};
}

bool Position::operator==(const Position& o) const {
  return occ_[0] == o.occ_[0] && occ_[1] == o.occ_[1] && boss_ == o.boss_ &&
         power_[1] == o.power_[1] && power_[2] == o.power_[2] && power_[3] == o.power_[3] &&
         tokens_ == o.tokens_ && key_ == o.key_ && halfmove_ == o.halfmove_ && ply_ == o.ply_ &&
         points_[0] == o.points_[0] && points_[1] == o.points_[1] && stm_ == o.stm_;
}

uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (pos.decided_without_stalemate()) return 0;
  if (depth == 1) return static_cast<uint64_t>(pos.count_moves());
  MoveList list;
  pos.generate(list);
  uint64_t nodes = 0;
  for (const Move& m : list) {
    Position child = pos;
    child.apply(m);
    nodes += perft(child, depth - 1);
  }
  return nodes;
}

}  // namespace pincer::seize
