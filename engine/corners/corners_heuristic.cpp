#include "engine/corners/corners_heuristic.h"

#include "engine/corners/corners_game.h"

namespace pincer::corners {

namespace {

constexpr int kPiece = 100;
constexpr int kReserve = 70;       // a reserve piece comes back only through a divide
constexpr int kGuard = 4;          // per square a side guards alone
constexpr int kCrossNow = 3000;    // the mover can cross this move
constexpr int kCrossThreat = 400;  // per square the other side could cross on next move
// Advance of a square piece by ranks from its own back rank (0) to the rank before the far one.
constexpr int kAdvance[8] = {0, 0, 3, 8, 16, 30, 60, 0};
// A point piece on point row r (0-based from its own side).
constexpr int kPointAdvance[7] = {0, 2, 5, 10, 18, 32, 60};

}  // namespace

Bitboard crossings(const Position& pos, int player) {
  const Rules& r = pos.rules();
  const Bitboard far = r.far_rank[player], empty = pos.empty_squares();
  const Bitboard own = pos.squares(player);
  const Bitboard passable = own | (empty & pos.own_guarded(player));
  const int dir = player == kWhite ? 0 : 2;
  Bitboard out = 0;
  // Runs towards the far rank: only pieces whose file has an empty far square can land there.
  for (Bitboard b = own & ~far; b;) {
    const int from = pop_lsb(b);
    const Bitboard ray = r.ray[dir][from];
    if (!(ray & far & empty)) continue;
    const Bitboard stop = ray & ~passable;
    const Bitboard walk = stop ? ray & ~r.ray[dir][dir == 0 ? lsb(stop) : msb(stop)] : ray;
    out |= walk & far & empty;
  }
  // Point pieces on the last point row step or divide onto the far rank.
  const Bitboard last_row = player == kWhite ? kPoints & (kRank1 << 48) : kPoints & kRank1;
  const Bitboard pts = pos.points(player) & last_row;
  if (pts) out |= guarded(pts) & far & empty;
  return out;
}

int net_capture(const Position& pos, int action) {
  const int us = pos.to_move();
  Position child = pos;
  child.apply(action);
  const Bitboard sq = child.last_captured_squares(), pt = child.last_captured_points();
  if (!(sq | pt)) return 0;
  const int theirs = popcount(sq & pos.squares(us ^ 1)) + popcount(pt & pos.points(us ^ 1));
  return theirs * 2 - popcount(sq) - popcount(pt);  // theirs - ours
}

int evaluate(const Position& pos) {
  const int us = pos.to_move(), them = us ^ 1;
  int score[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    int v =
        (popcount(pos.squares(s)) + popcount(pos.points(s))) * kPiece + pos.reserve(s) * kReserve;
    for (Bitboard b = pos.squares(s); b;) {
      const int sq = pop_lsb(b);
      v += kAdvance[s == kWhite ? sq >> 3 : 7 - (sq >> 3)];
    }
    for (Bitboard b = pos.points(s); b;) {
      const int pt = pop_lsb(b);
      v += kPointAdvance[s == kWhite ? pt >> 3 : 6 - (pt >> 3)];
    }
    v += popcount(pos.own_guarded(s)) * kGuard;
    score[s] = v;
  }
  int value = score[us] - score[them];
  if (crossings(pos, us)) return value + kCrossNow;
  value -= popcount(crossings(pos, them)) * kCrossThreat;
  return value;
}

int CornersHeuristic::evaluate(const State& state) const {
  return corners::evaluate(static_cast<const CornersState&>(state).position());
}

void CornersHeuristic::capture_points(const State& state, const std::vector<Action>& actions,
                                      std::vector<int>& out) const {
  const Position& pos = static_cast<const CornersState&>(state).position();
  out.resize(actions.size());
  for (size_t i = 0; i < actions.size(); ++i) out[i] = net_capture(pos, actions[i]);
}

const CornersHeuristic& corners_heuristic() {
  static const CornersHeuristic instance;
  return instance;
}

}  // namespace pincer::corners
