#include "engine/dice/dice_heuristic.h"

#include "engine/dice/dice_game.h"

namespace pincer::dice {

namespace {

// A die's worth now (by the piece its face moves as) and after its next move (the face it
// decays into): a die is played, so what it turns into counts almost as much as what it is.
constexpr int kRoleValue[kKinds] = {0, 100, 100, 300, 320, 480, 850};
constexpr int kNowWeight = 60;        // percent; the rest goes to the decayed face
constexpr int kMobility = 5;          // per move
constexpr int kKingAttacked = 400;    // per enemy die reaching the King, side not to move
constexpr int kKingTakeable = 20000;  // the side to move can take the enemy King
constexpr int kKingGuard = 15;        // per own die next to the King
constexpr int kAdvance = 6;           // per rank a pawn has advanced
constexpr int kTempo = 10;

}  // namespace

int die_value(int kind) {
  if (kind == kKing) return 0;
  return (kRoleValue[kind] * kNowWeight + kRoleValue[decayed(kind)] * (100 - kNowWeight)) / 100;
}

int capture_value(const Position& pos, int to) {
  const int kind = pos.kind_at(to);
  if (kind < 0) return 0;
  if (kind == kKing) return pos.rules().scored() ? 60 : 1000;
  return die_value(kind) / 10;
}

int evaluate(const Position& pos) {
  const Rules& r = pos.rules();
  const int us = pos.to_move(), them = us ^ 1;
  Bitboard reach[2];
  const int mobility[2] = {pos.mobility(0, reach[0]), pos.mobility(1, reach[1])};
  if (!r.scored() && (reach[us] & pos.dice(them, kKing))) return kKingTakeable;

  int score[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    int v = 0;
    for (int k = 1; k < kKinds; ++k) v += popcount(pos.dice(s, k)) * die_value(k);
    for (Bitboard b = pos.dice(s, 1) | pos.dice(s, 2); b;) {
      const int sq = pop_lsb(b);
      v += (s == kWhite ? r.rank_of(sq) : r.size - 1 - r.rank_of(sq)) * kAdvance;
    }
    v += mobility[s] * kMobility;
    const Bitboard king = pos.dice(s, kKing);
    if (king) {
      v += popcount(r.king[lsb(king)] & pos.pieces(s)) * kKingGuard;
    } else if (!r.scored()) {
      v -= kKingTakeable;
    }
    score[s] = v;
  }
  // The side not to move whose King the mover reaches is lost above; the mover's King reached by
  // the other side must be saved this move.
  if (!r.scored() && (reach[them] & pos.dice(us, kKing))) score[us] -= kKingAttacked;
  if (r.scored()) {
    score[0] += pos.points(0) * 200;
    score[1] += pos.points(1) * 200;
  }
  return score[us] - score[them] + kTempo;
}

int DiceHeuristic::evaluate(const State& state) const {
  return dice::evaluate(static_cast<const DiceState&>(state).position());
}

void DiceHeuristic::capture_points(const State& state, const std::vector<Action>& actions,
                                   std::vector<int>& out) const {
  const Position& pos = static_cast<const DiceState&>(state).position();
  const Rules& r = pos.rules();
  out.resize(actions.size());
  const Bitboard theirs = pos.pieces(pos.to_move() ^ 1);
  for (size_t i = 0; i < actions.size(); ++i) {
    const int to = action_to(r, actions[i]);
    out[i] = (theirs & bit(to)) ? capture_value(pos, to) : 0;
  }
}

const DiceHeuristic& dice_heuristic() {
  static const DiceHeuristic h;
  return h;
}

}  // namespace pincer::dice
