#include "engine/seize/seize_heuristic.h"

#include <algorithm>

#include "engine/seize/seize_game.h"

namespace pincer::seize {

namespace {

// Values in hundredths of a plain guard.
constexpr int kGuard = 100;
constexpr int kSliderGuard = 140;  // a guard with a + or x cap
constexpr int kCrownGuard = 125;   // a guard with the boss cap
constexpr int kBoss = 350;
constexpr int kLastBoss = 300;                  // extra: one more boss lost loses the game
constexpr int kLastPieces[3] = {400, 250, 90};  // one, two, three pieces above the force limit
constexpr int kCrownsHeld[5] = {0, 12, 35, 90, 0};
constexpr int kCentre = 6;          // a piece in the central 4x4
constexpr int kMobility = 4;        // per legal move
constexpr int kBossNeighbour = 14;  // per enemy piece next to a boss
constexpr int kTempo = 10;
constexpr int kCrownWinNow = 30000;   // the side to move completes the crowns next move
constexpr int kCrownThreat = 250;     // the opponent threatens to
constexpr int kLostOnCapture = 4000;  // a piece whose capture loses the game (last boss, force)

constexpr Bitboard kCentre16 = 0x00003C3C3C3C0000ULL;

int piece_value(const Position& pos, int sq) {
  const Bitboard b = bit(sq);
  if (pos.bosses() & b) return kBoss;
  if ((pos.powered(kPlus) | pos.powered(kCross)) & b) return kSliderGuard;
  if (pos.powered(kCrown) & b) return kCrownGuard;
  return kGuard;
}

}  // namespace

Bitboard captures_of(const Position& pos, Move m) {
  const Tables& t = tables();
  const Rules& r = pos.rules();
  const int us = pos.to_move(), them = us ^ 1;
  const Bitboard theirs = pos.pieces(them);
  if (!(t.king[m.to] & theirs)) return 0;  // nothing next to the landing square
  const Bitboard mine = (pos.pieces(us) ^ bit(m.from)) | bit(m.to);
  Bitboard captured = 0;
  const int step = r.capture_diagonally ? 1 : 2;
  for (int d = 0; d < 8; d += step) {
    if ((t.step[m.to][d] & theirs) && (t.jump[m.to][d] & mine)) captured |= t.step[m.to][d];
  }
  if (r.pin) {
    for (Bitboard cand = t.king[m.to] & theirs & ~pos.bosses() & ~captured; cand;) {
      const int sq = pop_lsb(cand);
      if (!(t.king[sq] & ~mine)) captured |= bit(sq);
    }
  }
  return captured;
}

int capture_points(const Position& pos, Bitboard captured) {
  if (!captured) return 0;
  const Rules& r = pos.rules();
  const bool own = r.keeps_points();
  const int guard = own ? r.score_guard : 1, capped = own ? r.score_capped_guard : 2,
            boss = own ? r.score_boss : 3;
  const Bitboard caps = pos.powered(kPlus) | pos.powered(kCross) | pos.powered(kCrown);
  const Bitboard bosses = captured & pos.bosses();
  const int points = popcount(bosses) * boss + popcount(captured & ~bosses & caps) * capped +
                     popcount(captured & ~bosses & ~caps) * guard;
  return std::max(points, 1);  // every capture counts, even one a ruleset scores 0
}

int evaluate(const Position& pos) {
  const Rules& r = pos.rules();
  const Tables& t = tables();
  const int us = pos.to_move();
  const Bitboard occ = pos.occupied();
  const Bitboard bosses = pos.bosses();

  Bitboard reach[2] = {0, 0}, reach_off_crowns[2] = {0, 0};
  int mobility[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    for (Bitboard b = pos.pieces(s); b;) {
      const int sq = pop_lsb(b);
      const Bitboard tg = pos.targets(sq);
      reach[s] |= tg;
      if (!(r.crown_squares & bit(sq))) reach_off_crowns[s] |= tg;
      mobility[s] += popcount(tg);
    }
  }

  int score[2] = {0, 0};
  int threat = 0;  // for the side to move
  for (int s = 0; s < 2; ++s) {
    const int e = s ^ 1;
    const Bitboard mine = pos.pieces(s), theirs = pos.pieces(e);
    const int n = popcount(mine), nb = popcount(mine & bosses);
    int v = 0;
    for (Bitboard b = mine; b;) v += piece_value(pos, pop_lsb(b));
    const bool last_boss = r.win_bosses && nb == 1;
    if (last_boss) v -= kLastBoss;
    const int spare = r.force_max_pieces ? n - r.force_max_pieces : 99;
    if (spare >= 1 && spare <= 3) v -= kLastPieces[spare - 1];
    v += popcount(mine & kCentre16) * kCentre;
    v += mobility[s] * kMobility;
    for (Bitboard b = mine & bosses; b;)
      v -= popcount(t.king[pop_lsb(b)] & theirs) * kBossNeighbour;

    if (r.win_crowns) {
      const Bitboard missing = r.crown_squares & ~mine;
      v += kCrownsHeld[popcount(r.crown_squares & mine)];
      if (popcount(missing) == 1 && !(missing & occ) && (reach_off_crowns[s] & missing)) {
        if (s == us) return kCrownWinNow;
        threat -= kCrownThreat;
      }
    }

    // Pieces the enemy can sandwich next move: an enemy on one side, an empty square it can
    // reach on the other. The side to move can save one; the other side's are left to the
    // quiescence search.
    int worst = 0, second = 0;
    const int step = r.capture_diagonally ? 1 : 2;
    for (Bitboard b = mine; b;) {
      const int sq = pop_lsb(b);
      for (int d = 0; d < 8; d += step) {
        const Bitboard far = t.step[sq][opposite(d)];
        if ((t.step[sq][d] & theirs) && far && !(far & occ) && (far & reach[e])) {
          int value = piece_value(pos, sq);
          if ((bit(sq) & bosses) ? last_boss : spare == 1) value = kLostOnCapture;
          if (value > worst)
            second = worst, worst = value;
          else if (value > second)
            second = value;
          break;
        }
      }
    }
    if (s == us)
      v -= worst / 8 + second * 2 / 3;
    else
      v -= worst / 16;
    score[s] = v;
  }

  int total = score[us] - score[us ^ 1] + threat + kTempo;
  if (r.keeps_points()) {
    int weight = 12;
    if (r.total_plies) {
      const int left = r.total_plies - pos.ply();
      if (left < 100) weight += (100 - left) * 3;
    }
    total += (pos.points(us) - pos.points(us ^ 1)) * weight;
  }
  return total;
}

int SeizeHeuristic::evaluate(const State& state) const {
  return seize::evaluate(static_cast<const SeizeState&>(state).position());
}

void SeizeHeuristic::capture_points(const State& state, const std::vector<Action>& actions,
                                    std::vector<int>& out) const {
  const Position& pos = static_cast<const SeizeState&>(state).position();
  out.resize(actions.size());
  for (size_t i = 0; i < actions.size(); ++i) {
    out[i] = seize::capture_points(pos, captures_of(pos, action_to_move(actions[i])));
  }
}

const SeizeHeuristic& seize_heuristic() {
  static const SeizeHeuristic instance;
  return instance;
}

}  // namespace pincer::seize
