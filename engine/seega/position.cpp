#include "engine/seega/position.h"

#include "engine/perft.h"

namespace pincer::seega {

namespace {

struct Zobrist {
  uint64_t piece[2][kMaxSquares];
  uint64_t hand[2][kMaxSquares];  // by count in hand
  uint64_t turn;                  // xored in when it is light's turn
};

// Built at start-up like SE!ZE's, so the hot path has no lazy-initialisation check.
const Zobrist kZobrist = [] {
  Zobrist t{};
  KeyStream keys(0x5ee6a5ee6a5ee6a5ULL);
  for (auto& a : t.piece)
    for (auto& k : a) k = keys.next();
  for (auto& a : t.hand)
    for (auto& k : a) k = keys.next();
  t.turn = keys.next();
  return t;
}();

const Zobrist& zobrist() { return kZobrist; }

}  // namespace

const char* reason_name(Reason r) {
  switch (r) {
    case Reason::kNone:
      return "";
    case Reason::kAll:
      return "all";
    case Reason::kReduced:
      return "reduced";
    case Reason::kLocked:
      return "locked";
    case Reason::kBlocked:
      return "blocked";
    case Reason::kLimit:
      return "limit";
  }
  return "";
}

Position Position::empty(const Rules& rules) {
  Position p;
  p.rules_ = &rules;
  p.hand_[0] = p.hand_[1] = static_cast<uint8_t>(rules.pieces);
  const Zobrist& z = zobrist();
  p.key_ = z.hand[0][rules.pieces] ^ z.hand[1][rules.pieces];
  return p;
}

Position Position::start(const Rules& rules) {
  Position p = empty(rules);
  p.finish();
  return p;
}

int Position::placements_left_in_turn() const {
  if (!placing()) return 0;
  const int placed = 2 * rules_->pieces - hand_[0] - hand_[1];
  return rules_->per_turn - placed % rules_->per_turn;
}

void Position::put(int sq, int player) {
  const Zobrist& z = zobrist();
  const Bitboard b = bit(sq);
  const int old = owner(sq);
  if (old >= 0) key_ ^= z.piece[old][sq];
  occ_[0] &= ~b, occ_[1] &= ~b;
  if (player >= 0) {
    occ_[player] |= b;
    key_ ^= z.piece[player][sq];
  }
}

void Position::set_hands(int dark, int light) {
  const Zobrist& z = zobrist();
  key_ ^= z.hand[0][hand_[0]] ^ z.hand[1][hand_[1]];
  hand_[0] = static_cast<uint8_t>(dark);
  hand_[1] = static_cast<uint8_t>(light);
  key_ ^= z.hand[0][hand_[0]] ^ z.hand[1][hand_[1]];
}

void Position::set_turn(int player) {
  if (player != turn_) key_ ^= zobrist().turn;
  turn_ = static_cast<uint8_t>(player);
  actor_ = turn_;
}

void Position::set_counters(int halfmove, int ply) {
  halfmove_ = static_cast<uint16_t>(halfmove);
  ply_ = static_cast<uint16_t>(ply);
}

bool Position::can_step(int player) const {
  const Rules& r = *rules_;
  const Bitboard empty = empty_squares(), mine = occ_[player];
  return ((r.shift(mine, kNorth) | r.shift(mine, kEast) | r.shift(mine, kSouth) |
           r.shift(mine, kWest)) &
          empty) != 0;
}

Bitboard Position::forced_targets_any() const {
  const Rules& r = *rules_;
  const Bitboard empty = empty_squares(), theirs = occ_[turn_];
  Bitboard out = 0;
  for (int d = 0; d < 8; d += r.forced_dirs_step) out |= r.shift(theirs, d);
  return out & empty;
}

void Position::finish() {
  const Rules& r = *rules_;
  actor_ = turn_;
  reason_ = Reason::kNone;
  winner_ = -1;
  if (placing()) return;
  for (int p : {static_cast<int>(turn_), turn_ ^ 1}) {
    const int left = popcount(occ_[p]);
    if (left <= r.reduced_to) {
      reason_ = left == 0 ? Reason::kAll : Reason::kReduced;
      winner_ = static_cast<int8_t>(p ^ 1);
      return;
    }
  }
  if (!can_step(turn_)) {
    const int other = turn_ ^ 1;
    if (!can_step(other)) {
      reason_ = Reason::kLocked;
      return;
    }
    if (r.blocked == BlockedRule::kLoses) {
      reason_ = Reason::kBlocked;
      winner_ = static_cast<int8_t>(other);
      return;
    }
    if (r.blocked == BlockedRule::kOpponentMoves && forced_targets_any()) {
      actor_ = static_cast<uint8_t>(other);
    } else {
      set_turn(other);  // the blocked player's turn passes
    }
  }
  if (halfmove_ >= r.capture_free_plies) reason_ = Reason::kLimit;
}

void Position::generate(ActionList& out) const {
  const Rules& r = *rules_;
  out.size = 0;
  if (reason_ != Reason::kNone) return;
  const Bitboard empty = empty_squares();
  if (placing()) {
    for (Bitboard b = r.placeable & empty; b;)
      out.actions[out.size++] = static_cast<int16_t>(pop_lsb(b));
    return;
  }
  const int step = forced() ? r.forced_dirs_step : 2;
  const Bitboard mine = occ_[turn_];  // forced moves move turn()'s pieces too
  for (int d = 0; d < 8; d += step) {
    for (Bitboard to = r.shift(mine, d) & empty; to;) {
      const int from = pop_lsb(to) - r.delta[d];
      out.actions[out.size++] = static_cast<int16_t>(step_action(r, from, d));
    }
  }
}

int Position::count_actions() const {
  const Rules& r = *rules_;
  if (reason_ != Reason::kNone) return 0;
  const Bitboard empty = empty_squares();
  if (placing()) return popcount(r.placeable & empty);
  const int step = forced() ? r.forced_dirs_step : 2;
  const Bitboard mine = occ_[turn_];
  int n = 0;
  for (int d = 0; d < 8; d += step) n += popcount(r.shift(mine, d) & empty);
  return n;
}

bool Position::is_legal(int action) const {
  const Rules& r = *rules_;
  if (reason_ != Reason::kNone || action < 0 || action >= num_actions(r)) return false;
  const Bitboard empty = empty_squares();
  if (placing()) return is_placement(r, action) && (r.placeable & empty & bit(action));
  if (is_placement(r, action)) return false;
  const int from = action_from(r, action), dir = action_dir(r, action);
  if (!forced() && (dir & 1)) return false;
  if (forced() && (dir % r.forced_dirs_step)) return false;
  const int to = r.neighbour[from][dir];
  return to >= 0 && (occ_[turn_] & bit(from)) && (empty & bit(to));
}

void Position::apply(int action) {
  const Rules& r = *rules_;
  const Zobrist& z = zobrist();
  ++ply_;
  last_captured_ = 0;
  if (is_placement(r, action)) {
    const int us = turn_;
    occ_[us] |= bit(action);
    key_ ^= z.piece[us][action];
    key_ ^= z.hand[us][hand_[us]];
    --hand_[us];
    key_ ^= z.hand[us][hand_[us]];
    const int placed = 2 * r.pieces - hand_[0] - hand_[1];
    set_turn(placed < 2 * r.pieces ? r.placement_actor(placed) : r.movement_starter);
    finish();
    return;
  }
  const int owner = turn_, them = owner ^ 1;  // the moved piece is always turn()'s
  const int from = action_from(r, action), to = r.neighbour[from][action_dir(r, action)];
  occ_[owner] ^= bit(from) | bit(to);
  key_ ^= z.piece[owner][from] ^ z.piece[owner][to];
  Bitboard captured = 0;
  if (!forced() || r.forced_move_captures) {
    const Bitboard landed = bit(to);
    for (int d = 0; d < 8; d += 2) {
      const Bitboard adj = r.shift(landed, d) & occ_[them];
      if (r.shift(adj, d) & occ_[owner]) captured |= adj;
    }
    for (Bitboard c = captured; c;) key_ ^= z.piece[them][pop_lsb(c)];
    occ_[them] &= ~captured;
  }
  last_captured_ = captured;
  halfmove_ = captured ? 0 : static_cast<uint16_t>(halfmove_ + 1);
  // After a normal move the opponent's turn; after a forced move the actor's own turn: both are
  // the other player from turn().
  set_turn(them);
  finish();
}

bool Position::operator==(const Position& o) const {
  return occ_[0] == o.occ_[0] && occ_[1] == o.occ_[1] && hand_[0] == o.hand_[0] &&
         hand_[1] == o.hand_[1] && turn_ == o.turn_ && actor_ == o.actor_ && key_ == o.key_ &&
         halfmove_ == o.halfmove_ && ply_ == o.ply_ && reason_ == o.reason_ && winner_ == o.winner_;
}

uint64_t perft(const Position& pos, int depth) {
  return bulk_perft<Position, ActionList>(pos, depth);
}

}  // namespace pincer::seega
