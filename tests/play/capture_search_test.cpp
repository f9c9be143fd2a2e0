// engine/capture_search.h, the quiescence core shared by the alpha-beta player and the MCTS leaf
// evaluation: it gives the alpha-beta player's scores on random SE!ZE and Seega positions.
#include "engine/capture_search.h"

#include <gtest/gtest.h>

#include "engine/registry.h"
#include "play/alphabeta.h"
#include "play/players.h"
#include "tests/support/random_games.h"

namespace pincer {
namespace {

// The exact minimax value of `depth` full-width plies then captures, by plain negamax over
// CaptureSearch::quiesce (no pruning at the full-width plies): the reference for both.
int reference(CaptureSearch& cs, const State& s, int depth, int ply) {
  const Outcome o = s.outcome();
  if (o.over) return terminal_score(o, s.to_move(), ply);
  if (depth == 0) return cs.quiesce(s, -2 * kWinScore, 2 * kWinScore, ply);
  std::vector<Action> legal;
  s.legal_actions(legal);
  int best = -2 * kWinScore;
  for (Action a : legal) {
    auto c = s.clone();
    c->apply(a);
    const int v = reference(cs, *c, depth - 1, ply + 1);
    best = std::max(best, c->to_move() == s.to_move() ? v : -v);
  }
  return best;
}

void check_game(const char* rules, int positions_wanted) {
  const GamePtr game = load_game(rules);
  const Heuristic& h = heuristic_for(*game);
  CaptureSearch cs(h, 16);
  int positions = 0, nonzero = 0;
  std::vector<Action> legal;
  for (uint64_t seed = 1; seed <= 60 && positions < positions_wanted; ++seed) {
    testing::play_random_game(*game->initial_state(), seed, 80, [&](const State& s, Action a) {
      if (a < 0 || positions >= positions_wanted || s.outcome().over) return;
      s.legal_actions(legal);
      if (legal.size() < 2 || (seed + legal.size()) % 3 != 0) return;  // a spread of positions
      ++positions;
      for (int depth = 1; depth <= 2; ++depth) {
        AlphaBetaOptions o;
        o.max_depth = depth;
        o.selective = false;  // no futility pruning: exact scores at this depth
        AlphaBeta ab(*game, o);
        const SearchInfo info = ab.search(s);
        const int ref = reference(cs, s, depth, 0);
        EXPECT_EQ(info.score, ref) << rules << " depth " << depth << " " << s.to_text();
        EXPECT_EQ(cs.value(s, depth), ref) << rules << " depth " << depth << " " << s.to_text();
        nonzero += ref != 0;
      }
    });
  }
  EXPECT_EQ(positions, positions_wanted);
  EXPECT_GT(nonzero, positions_wanted / 2);
}

TEST(CaptureSearch, AgreesWithAlphaBetaOnSeize) { check_game("seize-reference", 8); }

TEST(CaptureSearch, AgreesWithAlphaBetaOnSeega) { check_game("seega-5x5", 8); }

TEST(CaptureSearch, QuiescenceFollowsCapturesOnly) {
  const GamePtr game = load_game("seize-reference");
  const Heuristic& h = *game->heuristic();
  // Red to move; gold's pieces hang to a capture sequence after e5-g5 (see the MCTS leaf test).
  const auto s = game->parse_state("8/2g5/1g1g1gg1/2gbb3/1GGBBG2/3GG3/7G/8 r 10 0-0");
  CaptureSearch none(h, 0);
  EXPECT_EQ(none.value(*s), h.evaluate(*s)) << "depth 0 is the static value";
  auto after = s->clone();
  after->apply(game->parse_action(*s, "e5-g5"));
  CaptureSearch cs(h, 8);
  const int stand = h.evaluate(*after);
  const int q = cs.value(*after);
  EXPECT_GT(q, stand + 300) << "gold's captures are found";
  EXPECT_GT(cs.nodes(), 1u);
  EXPECT_DOUBLE_EQ(score_win_probability(0, 250), 0.5);
  EXPECT_EQ(score_win_probability(kWinScore - 3, 250), 1.0);
  EXPECT_EQ(score_win_probability(-kWinScore + 3, 250), 0.0);
  EXPECT_GT(score_win_probability(q, 250), 0.9);
}

}  // namespace
}  // namespace pincer
