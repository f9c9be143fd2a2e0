#include "engine/seega/seega_heuristic.h"

#include "engine/seega/seega_game.h"

namespace pincer::seega {

namespace {

constexpr int kPiece = 100;
constexpr int kMobility = 3;     // per step a side has
constexpr int kThreatened = 35;  // per piece the other side can sandwich next move
constexpr int kCentreTouch = 6;  // per piece next to the centre (placement: first moves)
constexpr int kBlockedLoses = 20000;
constexpr int kLastPieces = 60;  // each piece above the losing count, for the last three

// Steps each side could make now (its own steps, whoever's turn it is).
Bitboard reach(const Position& pos, int player) {
  const Rules& r = pos.rules();
  const Bitboard mine = pos.pieces(player);
  return (r.shift(mine, kNorth) | r.shift(mine, kEast) | r.shift(mine, kSouth) |
          r.shift(mine, kWest)) &
         pos.empty_squares();
}

int mobility(const Position& pos, int player) {
  const Rules& r = pos.rules();
  const Bitboard mine = pos.pieces(player), empty = pos.empty_squares();
  int n = 0;
  for (int d = 0; d < 8; d += 2) n += popcount(r.shift(mine, d) & empty);
  return n;
}

// Pieces of `player` with an enemy on one side and, on the other, an empty square an enemy
// piece can step into.
int threatened(const Position& pos, int player) {
  const Rules& r = pos.rules();
  const Bitboard theirs = pos.pieces(player ^ 1), landing = reach(pos, player ^ 1);
  int n = 0;
  for (Bitboard b = pos.pieces(player); b;) {
    const int sq = pop_lsb(b);
    for (int d = 0; d < 4; d += 2) {  // north/south and east/west pairs
      const int a = r.neighbour[sq][d], c = r.neighbour[sq][d + 4];
      if (a < 0 || c < 0) continue;
      if (((theirs & bit(a)) && (landing & bit(c))) || ((theirs & bit(c)) && (landing & bit(a)))) {
        ++n;
        break;
      }
    }
  }
  return n;
}

}  // namespace

Bitboard captures_of(const Position& pos, int action) {
  if (is_placement(pos.rules(), action)) return 0;
  Position child = pos;
  child.apply(action);
  return child.last_captured();
}

int evaluate(const Position& pos) {
  const Rules& r = pos.rules();
  const int us = pos.to_move(), them = us ^ 1;
  int score[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    const int pieces = popcount(pos.pieces(s)) + pos.hand(s);
    int v = pieces * kPiece;
    const int spare = pieces - r.reduced_to;
    if (spare <= 3) v -= (4 - spare) * kLastPieces;
    if (pos.placing()) {
      const Bitboard centre_ring =
          bit(r.neighbour[r.centre][kNorth]) | bit(r.neighbour[r.centre][kEast]) |
          bit(r.neighbour[r.centre][kSouth]) | bit(r.neighbour[r.centre][kWest]);
      v += popcount(pos.pieces(s) & centre_ring) * kCentreTouch;
    } else {
      const int moves = mobility(pos, s);
      v += moves * kMobility;
      if (moves == 0 && r.blocked == BlockedRule::kLoses && pos.turn() == s) v -= kBlockedLoses;
      v -= threatened(pos, s) * kThreatened * (s == us ? 1 : 2);
    }
    score[s] = v;
  }
  return score[us] - score[them];
}

int SeegaHeuristic::evaluate(const State& state) const {
  return seega::evaluate(static_cast<const SeegaState&>(state).position());
}

void SeegaHeuristic::capture_points(const State& state, const std::vector<Action>& actions,
                                    std::vector<int>& out) const {
  const Position& pos = static_cast<const SeegaState&>(state).position();
  out.resize(actions.size());
  for (size_t i = 0; i < actions.size(); ++i) {
    // A forced move that captures captures for the blocked player: it costs the actor.
    const int n = popcount(captures_of(pos, actions[i]));
    out[i] = pos.forced() ? 0 : n;
  }
}

const SeegaHeuristic& seega_heuristic() {
  static const SeegaHeuristic instance;
  return instance;
}

}  // namespace pincer::seega
