// The built-in players on set-up positions: greedy takes wins and the biggest capture,
// alphabeta finds forced wins and is deterministic at a fixed depth, mcts takes a win at once.
#include <gtest/gtest.h>

#include <set>

#include "engine/heuristic.h"
#include "engine/registry.h"
#include "engine/seize/seize_game.h"
#include "engine/seize/seize_heuristic.h"
#include "play/alphabeta.h"
#include "play/match.h"
#include "play/player.h"
#include "tests/support/random_games.h"
#include "tests/support/tictactoe.h"

namespace pincer {
namespace {

// Red to move: g6-f5 or e6-f5 sandwiches the gold boss on f4 (3 points), e6-d5 the guard on d4
// (1 point).
constexpr const char* kBiggestCapture = "1b4b1/8/4g1g1/8/3G1B2/3g1g2/G6G/1B6 r 0 0-0";
// Red to move holds three crowns: c3-d4 takes the fourth and wins; h5-g4 takes a boss (3).
constexpr const char* kCrownWin = "8/8/8/3bb2g/4g*3/2g3B1/GG4g1/1B6 r 0 0-0";
// Red to move holds two crowns and wins in three plies: c3-d4 and f3-e4, gold cannot stop both.
constexpr const char* kWinInThree = "6G1/7G/8/3bb3/8/2g2g2/B7/1B6 r 0 0-0";

GamePtr reference() { return load_game("seize-reference"); }

std::string move_of(const Game& game, const State& s, Action a) {
  return game.action_text(s, a, false);
}

TEST(Greedy, TakesTheBiggestCapture) {
  const GamePtr game = reference();
  const auto s = game->parse_state(kBiggestCapture);
  for (uint64_t seed = 0; seed < 10; ++seed) {
    auto p = make_player(game, "greedy", seed);
    const std::string m = move_of(*game, *s, p->choose(*s));
    EXPECT_TRUE(m == "g6-f5" || m == "e6-f5") << m;
  }
}

TEST(Greedy, TakesAWinBeforeAnyCapture) {
  const GamePtr game = reference();
  const auto s = game->parse_state(kCrownWin);
  for (uint64_t seed = 0; seed < 10; ++seed) {
    auto p = make_player(game, "greedy", seed);
    EXPECT_EQ(move_of(*game, *s, p->choose(*s)), "c3-d4");
  }
}

TEST(Greedy, BreaksTiesAtRandom) {
  const GamePtr game = reference();
  const auto s = game->initial_state();  // no capture at the start: any move
  std::set<Action> seen;
  for (uint64_t seed = 0; seed < 20; ++seed)
    seen.insert(make_player(game, "greedy", seed)->choose(*s));
  EXPECT_GT(seen.size(), 3u);
}

TEST(AlphaBeta, TakesTheWinAndTheCapture) {
  const GamePtr game = reference();
  auto p = make_player(game, "alphabeta:depth=3", 0);
  auto s = game->parse_state(kCrownWin);
  EXPECT_EQ(move_of(*game, *s, p->choose(*s)), "c3-d4");
  s = game->parse_state(kBiggestCapture);
  const std::string m = move_of(*game, *s, p->choose(*s));
  EXPECT_TRUE(m == "g6-f5" || m == "e6-f5") << m;
}

TEST(AlphaBeta, FindsAForcedWinAtDepth) {
  const GamePtr game = reference();
  const auto s = game->parse_state(kWinInThree);
  AlphaBetaOptions o;
  o.max_depth = 4;
  AlphaBeta search(*game, o);
  const SearchInfo info = search.search(*s);
  EXPECT_EQ(info.score, AlphaBeta::kWin - 3);
  const std::string m = move_of(*game, *s, info.best);
  EXPECT_TRUE(m == "c3-d4" || m == "f3-e4") << m;
  ASSERT_GE(info.pv.size(), 3u);
  // Follow the principal variation: it ends in red's crown win.
  auto line = s->clone();
  for (size_t i = 0; i < 3; ++i) line->apply(info.pv[i]);
  EXPECT_TRUE(line->outcome().over);
  EXPECT_EQ(line->outcome().winner, s->to_move());
  EXPECT_STREQ(line->outcome().reason, "crowns");
}

TEST(AlphaBeta, FindsAForkInTicTacToeWithTheGenericHeuristic) {
  const GamePtr game = testing::make_tictactoe();
  ASSERT_EQ(game->heuristic(), nullptr);
  // x: a1, c3; o: b2, a3; x to move. c1 blocks o's diagonal and forks b1 and c2.
  const auto s = game->parse_state("o.x/.o./x.. x");
  AlphaBetaOptions o;
  o.max_depth = 6;
  AlphaBeta search(*game, o);
  const SearchInfo info = search.search(*s);
  EXPECT_EQ(game->action_text(*s, info.best, false), "c1");
  EXPECT_EQ(info.score, AlphaBeta::kWin - 3);
  // From the empty board, full depth: a draw.
  AlphaBetaOptions full;
  full.max_depth = 9;
  AlphaBeta solver(*game, full);
  EXPECT_EQ(solver.search(*game->initial_state()).score, 0);
}

TEST(AlphaBeta, NeverLosesTicTacToe) {
  const GamePtr game = testing::make_tictactoe();
  for (uint64_t seed = 0; seed < 6; ++seed) {
    auto ab = make_player(game, "alphabeta:depth=9", seed);
    auto rnd = make_player(game, "random", seed);
    Player* players[2] = {ab.get(), rnd.get()};
    if (seed % 2) std::swap(players[0], players[1]);
    const PlayedGame g = play_game(*game->initial_state(), players, 20);
    const int ab_side = seed % 2;
    EXPECT_NE(g.outcome.winner, 1 - ab_side) << "seed " << seed;
  }
}

TEST(AlphaBeta, FixedDepthIsDeterministic) {
  const GamePtr game = reference();
  auto s = game->initial_state();
  for (const char* m : {"c6-b7", "c4-b5", "c5-b4"}) s->apply(game->parse_action(*s, m));
  AlphaBetaOptions o;
  o.max_depth = 5;
  AlphaBeta first(*game, o), second(*game, o);
  const SearchInfo a = first.search(*s), b = second.search(*s);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.pv, b.pv);
  EXPECT_EQ(a.depth, 5);
  first.clear();
  const SearchInfo c = first.search(*s);
  EXPECT_EQ(c.nodes, a.nodes);
  EXPECT_EQ(c.best, a.best);
  // Through the player interface, seeds do not matter at a fixed depth.
  EXPECT_EQ(make_player(game, "alphabeta:depth=4", 1)->choose(*s),
            make_player(game, "alphabeta:depth=4", 99)->choose(*s));
}

TEST(AlphaBeta, TimeLimitIsKept) {
  const GamePtr game = reference();
  auto s = game->initial_state();
  AlphaBetaOptions o;
  o.seconds = 0.05;
  AlphaBeta search(*game, o);
  const SearchInfo info = search.search(*s);
  EXPECT_GE(info.depth, 2);
  EXPECT_LT(info.seconds, 0.5);
}

TEST(AlphaBeta, NodeBudgetIsKeptAndPlaysTheSameMovesUnderAnyLoad) {
  const GamePtr game = reference();
  auto s = game->initial_state();
  AlphaBetaOptions small, large;
  small.max_nodes = 20000;
  large.max_nodes = 400000;
  AlphaBeta a(*game, small), b(*game, small), deep(*game, large);
  const SearchInfo x = a.search(*s), y = b.search(*s), z = deep.search(*s);
  // Stopped within one polling interval (1,024 nodes) of the budget; the same search twice.
  EXPECT_LE(x.nodes, small.max_nodes + 4096);
  EXPECT_GE(x.nodes, small.max_nodes);
  EXPECT_EQ(x.best, y.best);
  EXPECT_EQ(x.nodes, y.nodes);
  EXPECT_GT(z.depth, x.depth);
  // As a player spec; nodes= combines with depth= (whichever ends first).
  EXPECT_EQ(make_player(game, "alphabeta:nodes=20000", 1)->choose(*s), x.best);
  EXPECT_THROW(make_player(game, "alphabeta:nodes=10", 1), std::invalid_argument);
  EXPECT_THROW(make_player(game, "alphabeta:nodes=x", 1), std::invalid_argument);
}

TEST(Mcts, TakesAWinAtOnceAndPlaysLegalMoves) {
  const GamePtr game = reference();
  auto p = make_player(game, "mcts:sims=50", 3);
  auto s = game->parse_state(kCrownWin);
  EXPECT_EQ(move_of(*game, *s, p->choose(*s)), "c3-d4");
  auto start = game->initial_state();
  std::vector<Action> legal;
  start->legal_actions(legal);
  const Action a = p->choose(*start);
  EXPECT_NE(std::find(legal.begin(), legal.end(), a), legal.end());
}

// With tactics (the default) the rollout player never hands the opponent a win at once while
// it has a move that does not, even with few simulations; without them it does.
TEST(Mcts, TacticsAvoidMovesThatLoseAtOnce) {
  const GamePtr game = reference();
  int checked = 0, blunders_without = 0;
  std::vector<Action> legal;
  for (uint64_t seed = 1; seed <= 60 && checked < 12; ++seed) {
    testing::play_random_game(*game->initial_state(), seed, 200, [&](const State& s, Action a) {
      if (a < 0 || checked >= 12 || s.has_winning_action()) return;
      s.legal_actions(legal);
      int safe = 0;
      for (Action m : legal) {
        auto next = s.clone();
        next->apply(m);
        safe += !next->outcome().over && !next->has_winning_action();
      }
      if (safe == 0 || safe * 2 > static_cast<int>(legal.size())) return;  // most moves lose
      auto loses = [&](Action m) {
        auto next = s.clone();
        next->apply(m);
        return next->has_winning_action();
      };
      EXPECT_FALSE(loses(make_player(game, "mcts:sims=20", seed)->choose(s))) << s.to_text();
      blunders_without += loses(make_player(game, "mcts:sims=20,tactics=0", seed)->choose(s));
      ++checked;
    });
  }
  EXPECT_EQ(checked, 12);
  EXPECT_GT(blunders_without, 0);
}

TEST(Mcts, SameSeedSameMove) {
  const GamePtr game = reference();
  auto s = game->initial_state();
  EXPECT_EQ(make_player(game, "mcts:sims=60", 5)->choose(*s),
            make_player(game, "mcts:sims=60", 5)->choose(*s));
}

TEST(SeizeHeuristic, CapturesMatchTheRules) {
  for (const char* rules : {"seize-reference", "seize-v0"}) {
    const GamePtr game = load_game(rules);
    const Heuristic* h = game->heuristic();
    ASSERT_NE(h, nullptr);
    std::vector<Action> legal;
    std::vector<int> points;
    int captures = 0;
    for (uint64_t seed = 0; seed < 20; ++seed) {
      testing::play_random_game(*game->initial_state(), seed, 300, [&](const State& s, Action) {
        if (s.outcome().over) return;
        const auto& pos = static_cast<const seize::SeizeState&>(s).position();
        s.legal_actions(legal);
        h->capture_points(s, legal, points);
        ASSERT_EQ(points.size(), legal.size());
        for (size_t i = 0; i < legal.size(); ++i) {
          seize::Position after = pos;
          after.apply(seize::action_to_move(legal[i]));
          const seize::Bitboard predicted =
              seize::captures_of(pos, seize::action_to_move(legal[i]));
          ASSERT_EQ(predicted, after.last_captured()) << s.to_text();
          EXPECT_EQ(points[i] > 0, predicted != 0);
          if (game->ruleset_name() == "seize-reference") {
            EXPECT_EQ(points[i], after.points(pos.to_move()) - pos.points(pos.to_move()));
          }
          captures += predicted != 0;
        }
        // The evaluation is a value for the side to move, inside the documented range.
        const int v = h->evaluate(s);
        EXPECT_LT(std::abs(v), 100000);
      });
    }
    EXPECT_GT(captures, 100) << rules;
  }
}

TEST(SeizeHeuristic, EvaluationSeesMaterial) {
  const GamePtr game = reference();
  const Heuristic& h = *game->heuristic();
  // Red to move, a guard up on an otherwise mirrored board: red is better, and from gold's
  // side (same board, gold to move) gold is worse.
  const auto red = game->parse_state("8/8/2gggg2/2gbbg2/2GBBG2/2GGG3/8/8 r 0 0-1");
  const auto gold = game->parse_state("8/8/2gggg2/2gbbg2/2GBBG2/2GGG3/8/8 g 0 0-1");
  EXPECT_GT(h.evaluate(*red), 50);
  EXPECT_LT(h.evaluate(*gold), -50);
}

// A game whose captures always cost the mover (capture points -2 and below, the corners game's
// kind): greedy takes the least costly, alphabeta still plays, quiescence follows none of them.
class CostlyCaptures : public Heuristic {
 public:
  int evaluate(const State&) const override { return 0; }
  void capture_points(const State&, const std::vector<Action>& actions,
                      std::vector<int>& out) const override {
    out.clear();
    for (Action a : actions) out.push_back(a == 4 ? -2 : -3 - a);
  }
};

class CostlyTicTacToe : public testing::TicTacToeGame {
 public:
  const Heuristic* heuristic() const override { return &heuristic_; }

 private:
  CostlyCaptures heuristic_;
};

TEST(Greedy, TakesTheLeastCostlyWhenEveryCaptureCostsTheMover) {
  const GamePtr game = std::make_shared<CostlyTicTacToe>();
  auto s = game->initial_state();
  for (uint64_t seed = 0; seed < 8; ++seed)
    EXPECT_EQ(make_player(game, "greedy", seed)->choose(*s), 4);
  std::vector<Action> legal;
  s->legal_actions(legal);
  const Action a = make_player(game, "alphabeta:depth=3", 0)->choose(*s);
  EXPECT_NE(std::find(legal.begin(), legal.end(), a), legal.end());
}

}  // namespace
}  // namespace pincer
