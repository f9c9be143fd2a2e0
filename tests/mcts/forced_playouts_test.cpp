// Forced playouts and policy target pruning (mcts/forced_playouts.h): the arithmetic on a
// hand-worked root, and in a self-play search on tic-tac-toe.
#include "mcts/forced_playouts.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "mcts/search.h"
#include "tests/mcts/fakes.h"
#include "tests/support/tictactoe.h"

namespace pincer::mcts {
namespace {

TEST(ForcedPlayouts, OwedVisits) {
  EXPECT_FLOAT_EQ(forced_visits(2.0f, 0.5f, 100.0f), 10.0f);
  EXPECT_FLOAT_EQ(forced_visits(0.0f, 0.5f, 100.0f), 0.0f);
  EXPECT_FLOAT_EQ(forced_visits(2.0f, 0.0f, 100.0f), 0.0f);
}

// A root of 102 visits, c = 1.5 (c_scaled = 1.5 * sqrt(102) = 15.149), k = 2. The most visited
// child (0) scores 0.2 + 15.149 * 0.35 / 81 = 0.2655. Worked by hand:
//   child 1 (10 visits, q -0.3, P 0.3): owes floor(sqrt(2 * 0.3 * 102)) = 7, but below 8 visits
//     its score (-0.3 + 4.545 / (1 + 7) = 0.268) would beat the best's: keeps 8;
//   child 2 (6 visits, q 0.1, P 0.2): would beat the best below 18 visits: keeps all 6;
//   child 3 (1 visit): left with at most one visit: pruned to 0;
//   child 4: never visited;
//   child 5 (5 visits, q 0.5): its value alone beats the best's score: keeps all 5.
TEST(ForcedPlayouts, PrunedTargetOfAHandWorkedRoot) {
  const std::vector<uint32_t> visits{80, 10, 6, 1, 0, 5};
  const std::vector<float> q{0.2f, -0.3f, 0.1f, 0.0f, 0.0f, 0.5f};
  const std::vector<float> prior{0.35f, 0.3f, 0.2f, 0.05f, 0.05f, 0.05f};
  const float c_scaled = 1.5f * std::sqrt(102.0f);
  const std::vector<float> p = pruned_visit_policy(visits, q, prior, c_scaled, 2.0f);
  const std::vector<float> expected{80 / 99.0f, 8 / 99.0f, 6 / 99.0f, 0, 0, 5 / 99.0f};
  ASSERT_EQ(p.size(), expected.size());
  for (size_t i = 0; i < p.size(); ++i) EXPECT_NEAR(p[i], expected[i], 1e-6) << "child " << i;
  // k = 0 owes nothing: only the lone visit is pruned.
  const std::vector<float> unforced = pruned_visit_policy(visits, q, prior, c_scaled, 0.0f);
  EXPECT_NEAR(unforced[1], 10 / 101.0f, 1e-6);
  EXPECT_NEAR(unforced[3], 0.0f, 1e-6);
}

TEST(ForcedPlayouts, PrunedTargetEdgeCases) {
  EXPECT_EQ(pruned_visit_policy({0, 0}, {0, 0}, {0.5f, 0.5f}, 1.0f, 2.0f),
            (std::vector<float>{0, 0}));
  EXPECT_EQ(pruned_visit_policy({7}, {0.1f}, {1.0f}, 1.0f, 2.0f), (std::vector<float>{1.0f}));
  EXPECT_THROW(pruned_visit_policy({1, 2}, {0}, {0.5f, 0.5f}, 1.0f, 2.0f), std::invalid_argument);
}

// Tic-tac-toe from the empty board, where the network says the centre wins for x: PUCT pours the
// visits into the centre. x's values are the scripted ones; the same seed for every search.
SearchResult search_empty_board(SearchConfig config) {
  const GamePtr game = testing::make_tictactoe();
  testing::ScriptedEvaluator eval([](const State& s) {
    const auto& t = static_cast<const testing::TicTacToeState&>(s);
    const bool x_centre = t.cell(4) == 0;  // x holds the centre
    const std::array<float, 3> x_view =
        x_centre ? std::array<float, 3>{0.7f, 0.2f, 0.1f} : std::array<float, 3>{0.3f, 0.4f, 0.3f};
    return s.to_move() == 0 ? x_view : std::array<float, 3>{x_view[2], x_view[1], x_view[0]};
  });
  config.simulations = 400;
  config.seed = 7;
  Search search(game, config);
  search.reset(*game->initial_state());
  return search.run(eval);
}

TEST(ForcedPlayouts, SelfPlayFullSearchesForceAndPruneTheTarget) {
  SearchConfig config;
  config.self_play = true;
  config.forced_playouts = 2.0f;
  const SearchResult r = search_empty_board(config);
  ASSERT_TRUE(r.full_search);
  const auto best = std::max_element(r.visits.begin(), r.visits.end()) - r.visits.begin();
  EXPECT_EQ(r.actions[best], 4) << "the centre";
  const double n = r.root_visits;
  int reduced = 0;
  for (size_t i = 0; i < r.visits.size(); ++i) {
    // Every visited child got (about) the visits it was owed.
    if (r.visits[i] > 0) {
      EXPECT_GE(r.visits[i] + 1.0, std::floor(forced_visits(2.0f, r.prior[i], n))) << i;
    }
    // The target gives back visits relative to the best, never adds any.
    if (static_cast<long>(i) == best || r.visits[i] == 0) continue;
    const double raw = static_cast<double>(r.visits[i]) / r.visits[best];
    const double target = r.visit_policy[i] / r.visit_policy[best];
    EXPECT_LE(target, raw + 1e-6) << i;
    if (target < raw - 1e-6) ++reduced;
  }
  EXPECT_GT(reduced, 0);
  EXPECT_NEAR(std::accumulate(r.visit_policy.begin(), r.visit_policy.end(), 0.0), 1.0, 1e-5);

  // Without forcing, the same search leaves some visited child short of those visits.
  config.forced_playouts = 0.0f;
  const SearchResult plain = search_empty_board(config);
  int short_children = 0;
  for (size_t i = 0; i < plain.visits.size(); ++i) {
    const double owed = std::floor(forced_visits(2.0f, plain.prior[i], plain.root_visits));
    if (plain.visits[i] > 0 && plain.visits[i] + 1.0 < owed) ++short_children;
    EXPECT_NEAR(plain.visit_policy[i], double(plain.visits[i]) / plain.root_visits, 1e-2);
  }
  EXPECT_GT(short_children, 0);
}

TEST(ForcedPlayouts, PlayAndFastSearchesAreNeverForced) {
  SearchConfig config;
  config.forced_playouts = 2.0f;
  const SearchResult play = search_empty_board(config);  // self_play off
  config.forced_playouts = 0.0f;
  const SearchResult unforced = search_empty_board(config);
  EXPECT_EQ(play.visits, unforced.visits);
  EXPECT_EQ(play.visit_policy, unforced.visit_policy);

  config.self_play = true;
  config.forced_playouts = 2.0f;
  config.full_search_probability = 0.0f;
  config.fast_simulations = 50;
  const SearchResult fast = search_empty_board(config);
  ASSERT_FALSE(fast.full_search);
  const double total = std::accumulate(fast.visits.begin(), fast.visits.end(), 0.0);
  for (size_t i = 0; i < fast.visits.size(); ++i) {
    EXPECT_NEAR(fast.visit_policy[i], fast.visits[i] / total, 1e-6);
  }
}

TEST(ForcedPlayouts, ConfigIsValidated) {
  SearchConfig config;
  config.forced_playouts = -1.0f;
  EXPECT_THROW(config.validate(), std::invalid_argument);
  config.forced_playouts = std::nanf("");
  EXPECT_THROW(config.validate(), std::invalid_argument);
  config.forced_playouts = 2.0f;
  EXPECT_NO_THROW(config.validate());
}

}  // namespace
}  // namespace pincer::mcts
