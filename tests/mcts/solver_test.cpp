// MCTS-Solver and the tactics of new leaves, on tic-tac-toe, a toy game where one player acts
// twice, and SE!ZE.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "mcts/search.h"
#include "tests/mcts/fakes.h"
#include "tests/support/random_games.h"
#include "tests/support/tictactoe.h"

namespace pincer::mcts {
namespace {

using testing::index_of;
using testing::kBlock;
using testing::kWinInOne;
using testing::ScriptedEvaluator;

SearchResult search(const GamePtr& game, const char* text, const SearchConfig& config,
                    Evaluator& eval) {
  Search s(game, config);
  s.reset(*game->parse_state(text));
  return s.run(eval);
}

// Priors that put nearly everything on the lowest-numbered legal action.
std::vector<float> favour_first(const State&, const std::vector<Action>& legal) {
  std::vector<float> p(legal.size(), 0.01f);
  p[std::min_element(legal.begin(), legal.end()) - legal.begin()] = 10.0f;
  return p;
}

TEST(Solver, AWinInOneIsProvenAndPlayed) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 400;
  ScriptedEvaluator eval(nullptr, favour_first);  // the network would rather play a1... elsewhere
  const SearchResult r = search(game, kWinInOne, config, eval);
  EXPECT_EQ(r.action, 8);
  EXPECT_EQ(r.root_proven, Proven::kWin);
  EXPECT_EQ(r.proven[index_of(r, 8)], Proven::kWin);
  // The training target is the proven win alone, whatever the visits did elsewhere.
  for (size_t i = 0; i < r.actions.size(); ++i) {
    EXPECT_FLOAT_EQ(r.policy_target()[i], r.actions[i] == 8 ? 1.0f : 0.0f) << r.actions[i];
  }
}

// Every move but the block lets o win at once: the tactics prove them lost before any
// simulation, so even one simulation with priors that point elsewhere plays the block.
TEST(Solver, MovesThatLoseAtOnceAreProvenAndNeverPlayed) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 1;
  config.tactics = 2;
  ScriptedEvaluator eval(nullptr, favour_first);
  const SearchResult r = search(game, kBlock, config, eval);
  EXPECT_EQ(r.action, 5);
  for (size_t i = 0; i < r.actions.size(); ++i) {
    EXPECT_EQ(r.proven[i], r.actions[i] == 5 ? Proven::kUnknown : Proven::kLoss) << r.actions[i];
    // The proven losses get no share of the training target (the block gets all of it).
    EXPECT_FLOAT_EQ(r.policy_target()[i], r.actions[i] == 5 ? 1.0f : 0.0f) << r.actions[i];
  }
  // Without the solver the same search follows the priors into a loss.
  config.solver = false;
  EXPECT_NE(search(game, kBlock, config, eval).action, 5);
}

// With tactics 1 (the default) the same moves are proven lost one visit later: the opponent's
// node is proven won when a descent reaches it.
TEST(Solver, ImmediateWinsProveTheMoveBeforeThemLost) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 20;
  ScriptedEvaluator eval(nullptr, favour_first);
  const SearchResult r = search(game, kBlock, config, eval);
  EXPECT_EQ(r.action, 5);
  // The move the priors favour (the lowest, 1) was tried and proven lost; every other move tried
  // too (moves never tried stay unknown).
  EXPECT_EQ(r.proven[index_of(r, 1)], Proven::kLoss);
  for (size_t i = 0; i < r.actions.size(); ++i) {
    if (r.actions[i] != 5 && r.proven[i] != Proven::kLoss) {
      EXPECT_EQ(r.visits[i], 0u) << r.actions[i];
    }
  }
}

// Without tactics, proofs come from terminal nodes met by the search and are backed up: a
// network that likes the losing moves is overruled once they are proven.
TEST(Solver, ProofsAreBackedUpFromTerminalNodes) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 300;
  config.tactics = 0;
  // Every position looks lost for the player to move (after x's move: good for x).
  ScriptedEvaluator eval(
      [](const State&) {
        return std::array<float, 3>{0.0f, 0.0f, 1.0f};
      },
      favour_first);
  Search s(game, config);
  s.reset(*game->parse_state(kBlock));
  const SearchResult r = s.run(eval);
  EXPECT_EQ(r.action, 5);
  int lost = 0;
  for (size_t i = 0; i < r.actions.size(); ++i) lost += r.proven[i] == Proven::kLoss;
  EXPECT_EQ(lost, static_cast<int>(r.actions.size()) - 1);
  EXPECT_GT(s.stats().proven, 0u);
}

// The same player moving twice: the first player's a0 leads to its own second move, which wins.
TEST(Solver, ProvesWinsWhenTheSamePlayerMovesAgain) {
  for (int first : {0, 1}) {
    for (int tactics : {0, 1, 2}) {
      SCOPED_TRACE("first " + std::to_string(first) + " tactics " + std::to_string(tactics));
      const GamePtr game = std::make_shared<testing::TwiceGame>(first);
      SearchConfig config;
      config.simulations = 60;
      config.tactics = tactics;
      ScriptedEvaluator eval;
      Search s(game, config);
      s.reset(*game->initial_state());
      const SearchResult r = s.run(eval);
      EXPECT_EQ(r.action, 0);
      EXPECT_EQ(r.root_proven, Proven::kWin);
      EXPECT_EQ(r.proven[index_of(r, 0)], Proven::kWin);
      EXPECT_EQ(r.proven[index_of(r, 1)], Proven::kDraw);
    }
  }
}

// A lost root: every move loses (the search still returns a legal move and says so).
TEST(Solver, ALostRootStillPlaysALegalMove) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 50;
  ScriptedEvaluator eval;
  // o to move; x threatens 2 (the top row) and 3 (the left column): o cannot block both.
  const SearchResult r = search(game, "xx./.o./x.. o", config, eval);
  EXPECT_EQ(r.root_proven, Proven::kLoss);
  EXPECT_LT(index_of(r, r.action), r.actions.size());
  EXPECT_TRUE(
      std::all_of(r.proven.begin(), r.proven.end(), [](Proven p) { return p == Proven::kLoss; }));
  EXPECT_EQ(r.simulations, 50);  // a lost root is searched to the end (the longest resistance)
}

// SE!ZE: in positions of random games where the side to move can win at once, the search plays
// one of the winning moves after a handful of simulations.
TEST(Solver, SeizeWinsAtOnceWhenItCan) {
  const GamePtr game = load_game("seize-reference");
  SearchConfig config;
  config.simulations = 8;
  UniformEvaluator eval;
  int checked = 0;
  std::vector<Action> wins;
  for (uint64_t seed = 1; seed <= 40 && checked < 5; ++seed) {
    testing::play_random_game(*game->initial_state(), seed, 300, [&](const State& st, Action a) {
      if (a < 0 || checked >= 5) return;
      st.winning_actions(wins);
      if (wins.empty()) return;
      Search s(game, config);
      s.reset(st);
      const SearchResult r = s.run(eval);
      EXPECT_NE(std::find(wins.begin(), wins.end(), r.action), wins.end()) << st.to_text();
      EXPECT_EQ(r.root_proven, Proven::kWin);
      ++checked;
    });
  }
  EXPECT_EQ(checked, 5);
}

TEST(Solver, TacticsAreValidated) {
  SearchConfig config;
  config.tactics = 3;
  EXPECT_THROW(config.validate(), std::invalid_argument);
}

}  // namespace
}  // namespace pincer::mcts
