// The search on tic-tac-toe, a toy game where one player acts twice, and SE!ZE, with fake
// evaluators (uniform priors, scripted values).
#include "mcts/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "tests/mcts/fakes.h"
#include "tests/support/tictactoe.h"

namespace pincer::mcts {
namespace {

using testing::index_of;
using testing::kBlock;
using testing::kWinInOne;
using testing::ScriptedEvaluator;

SearchResult search_position(const char* text, SearchConfig config, Evaluator& eval,
                             int threads = 1) {
  const GamePtr game = testing::make_tictactoe();
  Search search(game, config);
  search.reset(*game->parse_state(text));
  return search.run(eval, threads);
}

TEST(Search, FindsWinInOne) {
  SearchConfig config;
  config.simulations = 64;
  UniformEvaluator eval;
  const SearchResult r = search_position(kWinInOne, config, eval);
  EXPECT_EQ(r.action, 8);
  EXPECT_EQ(r.simulations, 64);
  EXPECT_EQ(std::accumulate(r.visits.begin(), r.visits.end(), 0u), 64u);
  EXPECT_FLOAT_EQ(r.q[index_of(r, 8)], 1.0f);
  EXPECT_GT(r.wdl[0], 0.5f);  // the root value says x wins
  EXPECT_EQ(r.to_move, 0);
}

TEST(Search, BlocksLossInOne) {
  SearchConfig config;
  config.simulations = 200;
  UniformEvaluator eval;
  const SearchResult r = search_position(kBlock, config, eval);
  EXPECT_EQ(r.action, 5);
  // Every other move loses at once.
  for (size_t i = 0; i < r.actions.size(); ++i) {
    if (r.actions[i] != 5 && r.visits[i] > 0) {
      EXPECT_LT(r.q[i], -0.3f) << r.actions[i];
    }
  }
}

TEST(Search, ResultVectorsAreConsistent) {
  SearchConfig config;
  config.simulations = 50;
  UniformEvaluator eval;
  const SearchResult r = search_position(kBlock, config, eval);
  const size_t n = r.actions.size();
  EXPECT_EQ(n, 5u);
  for (const auto* v : {&r.prior, &r.q, &r.visit_policy, &r.improved_policy})
    EXPECT_EQ(v->size(), n);
  EXPECT_NEAR(std::accumulate(r.visit_policy.begin(), r.visit_policy.end(), 0.0), 1.0, 1e-5);
  EXPECT_NEAR(r.wdl[0] + r.wdl[1] + r.wdl[2], 1.0f, 1e-4);
  EXPECT_EQ(r.root_visits, 51u);  // the root's own evaluation plus the simulations
  EXPECT_EQ(&r.policy_target(), &r.visit_policy);
}

// Plays a whole self-play game of tic-tac-toe and returns every move's visits and action.
std::vector<std::vector<uint32_t>> selfplay_trace(uint64_t seed, bool gumbel) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 40;
  config.self_play = true;
  config.temperature = {1.0f, 0.0f, 4};
  config.full_search_probability = 0.7f;
  config.fast_simulations = 8;
  config.gumbel_actions = gumbel ? 4 : 0;
  config.seed = seed;
  Search search(game, config);
  search.reset(*game->initial_state());
  ScriptedEvaluator eval([](const State& s) {
    // Some position-dependent value so that values matter.
    const float w = static_cast<float>(s.hash() % 100) / 200.0f;
    return std::array<float, 3>{w, 0.5f, 0.5f - w};
  });
  std::vector<std::vector<uint32_t>> trace;
  while (!search.root_state().outcome().over) {
    const SearchResult r = search.run(eval);
    trace.push_back(r.visits);
    trace.push_back({static_cast<uint32_t>(r.action), r.full_search ? 1u : 0u});
    search.advance(r.action);
  }
  return trace;
}

TEST(Search, DeterministicWithAFixedSeed) {
  for (bool gumbel : {false, true}) {
    SCOPED_TRACE(gumbel ? "gumbel" : "puct");
    const auto a = selfplay_trace(7, gumbel), b = selfplay_trace(7, gumbel);
    EXPECT_EQ(a, b);
    // Another seed plays another game (noise, temperature, playout cap): compare a few seeds so
    // that a coincidence cannot pass for determinism.
    bool differs = false;
    for (uint64_t s = 8; s < 12 && !differs; ++s) differs = selfplay_trace(s, gumbel) != a;
    EXPECT_TRUE(differs);
  }
}

// A self-play search with a Gumbel root after two fixed plies: its visits and move.
std::vector<uint32_t> gumbel_third_move(uint64_t seed, int noise_moves) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 24;
  config.self_play = true;
  config.gumbel_actions = 4;
  config.gumbel_noise_moves = noise_moves;
  config.seed = seed;
  Search search(game, config);
  search.reset(*game->initial_state());
  search.advance(4);  // the centre
  search.advance(0);  // a corner
  EXPECT_EQ(search.move_number(), 2);
  ScriptedEvaluator eval([](const State& s) {
    const float w = static_cast<float>(s.hash() % 100) / 200.0f;
    return std::array<float, 3>{w, 0.5f, 0.5f - w};
  });
  SearchResult r = search.run(eval);
  r.visits.push_back(static_cast<uint32_t>(r.action));
  return r.visits;
}

TEST(Search, GumbelNoiseOnlyOnTheFirstMoves) {
  // Noise on the first two moves only: the third is the same whatever the seed.
  const auto quiet = gumbel_third_move(1, 2);
  for (uint64_t s = 2; s < 10; ++s) EXPECT_EQ(gumbel_third_move(s, 2), quiet) << "seed " << s;
  // Noise on the first three moves (or on every move): the seed changes the third move's search.
  for (int noise_moves : {3, 0}) {
    bool differs = false;
    const auto a = gumbel_third_move(1, noise_moves);
    for (uint64_t s = 2; s < 10 && !differs; ++s) differs = gumbel_third_move(s, noise_moves) != a;
    EXPECT_TRUE(differs) << "noise_moves " << noise_moves;
  }
}

TEST(Search, TreeReuseKeepsTheSubtree) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 300;
  UniformEvaluator eval;
  Search search(game, config);
  search.reset(*game->initial_state());
  const SearchResult first = search.run(eval);
  const Action played = first.action;
  const uint32_t child_visits = first.visits[index_of(first, played)];
  ASSERT_GT(child_visits, 10u);
  const auto nodes_before = search.tree_stats().nodes;
  search.advance(played);
  EXPECT_LT(search.tree_stats().nodes, nodes_before);
  EXPECT_EQ(search.tree_stats().nodes, child_visits);  // every visit made one node
  // Before any new simulation the new root already holds the subtree's visits.
  const SearchResult kept = search.result();
  EXPECT_EQ(kept.root_visits, child_visits);
  EXPECT_EQ(kept.simulations, 0);
  EXPECT_EQ(std::accumulate(kept.visits.begin(), kept.visits.end(), 0u), child_visits - 1);
  const uint64_t evals_before = eval.positions();
  const SearchResult next = search.run(eval);
  EXPECT_EQ(next.root_visits, child_visits + 300);
  EXPECT_LE(eval.positions() - evals_before, 300u);

  // Without reuse the next move starts from nothing.
  config.reuse_tree = false;
  Search fresh(game, config);
  fresh.reset(*game->initial_state());
  fresh.run(eval);
  fresh.advance(played);
  EXPECT_EQ(fresh.tree_stats().nodes, 1u);
  EXPECT_EQ(fresh.run(eval).root_visits, 301u);
}

TEST(Search, VirtualLossSpreadsOneStepsLeaves) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 100;
  Search search(game, config);
  search.reset(*game->initial_state());
  UniformEvaluator eval;
  LeafBatch batch;
  std::vector<Evaluation> out;
  ASSERT_EQ(search.collect(batch, 8), 1u);  // the root first
  eval.evaluate(batch.requests(), out);
  search.deliver(batch, out);
  ASSERT_EQ(search.collect(batch, 8), 8u);
  std::set<uint64_t> distinct;
  for (const EvalRequest& r : batch.requests()) distinct.insert(r.state->hash());
  EXPECT_EQ(distinct.size(), 8u);  // virtual loss sent each descent elsewhere
  EXPECT_FALSE(search.done());
  eval.evaluate(batch.requests(), out);
  search.deliver(batch, out);
  EXPECT_EQ(search.stats().simulations, 8u);
}

TEST(Search, MultithreadedSearchIsSane) {
  SearchConfig config;
  config.simulations = 400;
  config.leaves_per_batch = 4;
  for (const char* pos : {kWinInOne, kBlock}) {
    UniformEvaluator eval;
    const SearchResult r = search_position(pos, config, eval, 4);
    EXPECT_EQ(r.action, pos == kWinInOne ? 8 : 5) << pos;
    EXPECT_EQ(std::accumulate(r.visits.begin(), r.visits.end(), 0u), 400u);
    EXPECT_EQ(r.simulations, 400);
  }
}

TEST(Search, CacheAnswersRepeatedPositions) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 200;
  EvalCache cache(1 << 12);
  ScriptedEvaluator eval;
  Search a(game, config, &cache), b(game, config, &cache);
  a.reset(*game->initial_state());
  b.reset(*game->initial_state());
  const SearchResult ra = a.run(eval);
  const uint64_t first = eval.positions;
  // Transpositions already hit inside the first search.
  EXPECT_GT(a.stats().cache_hits, 0u);
  const SearchResult rb = b.run(eval);
  EXPECT_LT(eval.positions - first, first / 4);
  EXPECT_GT(cache.stats().hits, 100u);
  EXPECT_EQ(ra.visits, rb.visits);  // same answers, so the same search
  // A cache never hits for positions it has not seen, and clear() empties it.
  cache.clear();
  Evaluation e;
  EXPECT_FALSE(cache.lookup(game->initial_state()->hash(), 9, e));
}

TEST(Search, CacheIsBounded) {
  EvalCache cache(100);
  EXPECT_EQ(cache.capacity(), 128u);
  Evaluation e;
  e.priors = {0.5f, 0.5f};
  for (uint64_t k = 0; k < 1000; ++k) cache.insert(k, e);
  int present = 0;
  Evaluation out;
  for (uint64_t k = 0; k < 1000; ++k) present += cache.lookup(k, 2, out);
  EXPECT_EQ(present, 128);
  EXPECT_FALSE(cache.lookup(999, 3, out));  // wrong number of actions: not this position
}

TEST(Search, DirichletNoiseOnlyInSelfPlay) {
  SearchConfig config;
  config.simulations = 20;
  UniformEvaluator eval;
  const SearchResult plain = search_position(kBlock, config, eval);
  for (float p : plain.prior) EXPECT_NEAR(p, 0.2f, 1e-4);
  config.self_play = true;
  const SearchResult noisy = search_position(kBlock, config, eval);
  EXPECT_TRUE(noisy.full_search);
  EXPECT_NEAR(std::accumulate(noisy.prior.begin(), noisy.prior.end(), 0.0), 1.0, 1e-3);
  EXPECT_GT(*std::max_element(noisy.prior.begin(), noisy.prior.end()) -
                *std::min_element(noisy.prior.begin(), noisy.prior.end()),
            0.01f);
  // A fast search (playout cap) gets no noise.
  config.full_search_probability = 0.0f;
  config.fast_simulations = 10;
  const SearchResult fast = search_position(kBlock, config, eval);
  EXPECT_FALSE(fast.full_search);
  EXPECT_EQ(fast.simulations, 10);
  for (float p : fast.prior) EXPECT_NEAR(p, 0.2f, 1e-4);
}

TEST(Search, PlayoutCapRandomization) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.self_play = true;
  config.simulations = 30;
  config.fast_simulations = 5;
  config.full_search_probability = 0.25f;
  UniformEvaluator eval;
  Search search(game, config);
  int full = 0, fast = 0;
  for (int game_no = 0; game_no < 10; ++game_no) {
    search.reset(*game->initial_state());
    while (!search.root_state().outcome().over) {
      const SearchResult r = search.run(eval);
      EXPECT_EQ(r.simulations, r.full_search ? 30 : 5);
      (r.full_search ? full : fast) += 1;
      search.advance(r.action);
    }
  }
  EXPECT_GT(full, 5);
  EXPECT_GT(fast, 3 * full / 2);
}

TEST(Search, GumbelPicksTheWinningMove) {
  for (bool self_play : {false, true}) {
    SearchConfig config;
    config.simulations = 32;
    config.gumbel_actions = 16;
    config.self_play = self_play;
    UniformEvaluator eval;
    const SearchResult r = search_position(kWinInOne, config, eval);
    EXPECT_TRUE(r.gumbel);
    EXPECT_EQ(r.action, 8);
    EXPECT_EQ(&r.policy_target(), &r.improved_policy);
    EXPECT_NEAR(std::accumulate(r.improved_policy.begin(), r.improved_policy.end(), 0.0), 1.0,
                1e-5);
    EXPECT_GT(r.improved_policy[index_of(r, 8)], 0.9f);
    EXPECT_EQ(std::accumulate(r.visits.begin(), r.visits.end(), 0u), 32u);
  }
}

TEST(Search, GumbelSequentialHalvingFocusesVisits) {
  SearchConfig config;
  config.simulations = 64;
  config.gumbel_actions = 4;
  config.self_play = true;
  UniformEvaluator eval;
  const SearchResult r = search_position(kBlock, config, eval);
  // Only the considered actions get visits, and halving gives the chosen one the most.
  const int visited = std::count_if(r.visits.begin(), r.visits.end(), [](uint32_t v) { return v; });
  EXPECT_LE(visited, 4);
  EXPECT_EQ(r.visits[index_of(r, r.action)], *std::max_element(r.visits.begin(), r.visits.end()));
}

TEST(Search, SamePlayerTwiceBacksUpPerPlayer) {
  for (int first : {0, 1}) {
    for (int gumbel : {0, 2}) {
      SCOPED_TRACE("first " + std::to_string(first) + " gumbel " + std::to_string(gumbel));
      const GamePtr game = std::make_shared<testing::TwiceGame>(first);
      SearchConfig config;
      config.simulations = 60;
      config.gumbel_actions = gumbel;
      // The network thinks the position after a0 is bad for its mover (who is the first player
      // again); search must see through it.
      ScriptedEvaluator eval([](const State& s) {
        const int node = static_cast<const testing::TwiceState&>(s).node();
        return node == 1 ? std::array<float, 3>{0.2f, 0.2f, 0.6f} : std::array<float, 3>{0, 1, 0};
      });
      Search search(game, config);
      search.reset(*game->initial_state());
      const SearchResult r = search.run(eval);
      EXPECT_EQ(r.to_move, first);
      EXPECT_EQ(r.action, 0);
      EXPECT_GT(r.q[index_of(r, 0)], 0.5f);
      EXPECT_GT(r.wdl[0], r.wdl[2]);
      // At node 1 the same player moves again and must take the win.
      search.advance(0);
      const SearchResult r1 = search.run(eval);
      EXPECT_EQ(r1.to_move, first);
      EXPECT_EQ(r1.action, 0);
      EXPECT_FLOAT_EQ(r1.q[index_of(r1, 0)], 1.0f);
      EXPECT_FLOAT_EQ(r1.q[index_of(r1, 1)], -1.0f);
    }
  }
}

TEST(Search, ScriptedValuesAreReadForThePlayerToMove) {
  // A network that says "the player to move wins" everywhere: each move then leads to a position
  // good for the opponent, so the root's children all look lost for x (q near -1) and the root
  // value, a mix of its own evaluation and its children's, falls below that evaluation.
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 8;
  config.c_puct = 100;  // spread the visits over the children
  ScriptedEvaluator eval([](const State&) { return std::array<float, 3>{1, 0, 0}; });
  Search search(game, config);
  search.reset(*game->initial_state());
  const SearchResult r = search.run(eval);
  EXPECT_FLOAT_EQ(r.nn_wdl[0], 1.0f);
  for (size_t i = 0; i < r.actions.size(); ++i) {
    if (r.visits[i] == 1) {
      EXPECT_FLOAT_EQ(r.q[i], -1.0f);
    }
  }
  EXPECT_NEAR(r.wdl[0], 1.0f / 9.0f, 1e-5);  // 1 root win, 8 child losses
  EXPECT_NEAR(r.wdl[2], 8.0f / 9.0f, 1e-5);
}

TEST(Tree, EdgePriorsKeepTheirPrecision) {
  for (float p : {1.0f, 0.5f, 0.2f, 1.0f / 3584, 1e-4f, 1e-6f}) {
    Edge e;
    e.set_prior(p);
    EXPECT_NEAR(e.prior(), p, p * 0.02f) << p;
    EXPECT_GT(e.prior(), 0.0f);
  }
  Edge e;
  e.set_prior(0.3f);
  EXPECT_NEAR(e.prior(), 0.3f, 3e-5f);
  e.set_prior(0.0f);
  EXPECT_EQ(e.prior(), 0.0f);
  e.set_prior(2.0f);
  EXPECT_EQ(e.prior(), 1.0f);
}

TEST(Search, TemperatureSchedule) {
  TemperatureSchedule step{1.0f, 0.1f, 10, 0};
  EXPECT_FLOAT_EQ(step.at(0), 1.0f);
  EXPECT_FLOAT_EQ(step.at(9), 1.0f);
  EXPECT_FLOAT_EQ(step.at(10), 0.1f);
  TemperatureSchedule decay{1.0f, 0.0f, 0, 10.0f};
  EXPECT_FLOAT_EQ(decay.at(0), 1.0f);
  EXPECT_FLOAT_EQ(decay.at(10), 0.5f);
  EXPECT_FLOAT_EQ(decay.at(20), 0.25f);
}

TEST(Search, TemperatureSamplesAmongVisitedMoves) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 90;
  config.temperature = {1.0f, 0.0f, 100};
  UniformEvaluator eval;
  std::set<Action> chosen;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    config.seed = seed;
    Search search(game, config);
    search.reset(*game->initial_state());
    chosen.insert(search.run(eval).action);
  }
  EXPECT_GT(chosen.size(), 3u);
  config.temperature = {};
  std::set<Action> greedy;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    config.seed = seed;
    Search search(game, config);
    search.reset(*game->initial_state());
    greedy.insert(search.run(eval).action);
  }
  EXPECT_EQ(greedy.size(), 1u);
}

TEST(Search, TreeSizeIsBounded) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 1000;
  config.max_nodes = 50;
  UniformEvaluator eval;
  Search search(game, config);
  search.reset(*game->initial_state());
  const SearchResult r = search.run(eval);
  EXPECT_LE(search.tree_stats().nodes, 50u);
  EXPECT_LT(r.simulations, 1000);
  EXPECT_GT(r.simulations, 40);
}

TEST(Search, FinishedGameIsDoneAtOnce) {
  const GamePtr game = testing::make_tictactoe();
  Search search(game, SearchConfig{});
  search.reset(*game->parse_state("xxx/oo./... o"));
  EXPECT_TRUE(search.done());
  LeafBatch batch;
  EXPECT_EQ(search.collect(batch, 4), 0u);
  EXPECT_THROW(search.result(), std::logic_error);
}

TEST(Search, ConfigIsValidated) {
  SearchConfig config;
  config.leaves_per_batch = 0;
  try {
    config.validate();
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("leaves_per_batch"), std::string::npos);
  }
  config = {};
  config.dirichlet_epsilon = 2;
  EXPECT_THROW(Search(testing::make_tictactoe(), config), std::invalid_argument);
}

// A policy temperature T raises the network's priors to 1/T and renormalises them; a prior that
// is zero or not a number stays zero.
TEST(Search, PolicyTemperatureShapesThePriors) {
  // Empty board: nine legal moves; the network's priors 0.64, 0.16, 0.04, NaN, 0 and four of 0.04.
  const std::vector<float> given = {0.64f, 0.16f, 0.04f, std::nanf(""), 0.0f,
                                    0.04f, 0.04f, 0.04f, 0.04f};
  ScriptedEvaluator eval(nullptr, [&](const State&, const std::vector<Action>& legal) {
    std::vector<float> p(legal.size(), 0.01f);
    if (legal.size() == given.size()) p = given;
    return p;
  });
  auto root_priors = [&](float t) {
    SearchConfig config;
    config.simulations = 1;
    config.policy_temperature = t;
    const GamePtr game = testing::make_tictactoe();
    Search search(game, config);
    search.reset(*game->initial_state());
    return search.run(eval).prior;
  };
  const std::vector<float> plain = root_priors(1.0f);
  ASSERT_EQ(plain.size(), 9u);
  const float sum1 = 0.64f + 0.16f + 5 * 0.04f;
  EXPECT_NEAR(plain[0], 0.64f / sum1, 1e-4);
  EXPECT_NEAR(plain[1], 0.16f / sum1, 1e-4);
  EXPECT_EQ(plain[3], 0.0f);
  EXPECT_EQ(plain[4], 0.0f);
  // T = 2: square roots 0.8, 0.4, 0.2 (five of them), summing to 2.2.
  const std::vector<float> flat = root_priors(2.0f);
  EXPECT_NEAR(flat[0], 0.8f / 2.2f, 1e-4);
  EXPECT_NEAR(flat[1], 0.4f / 2.2f, 1e-4);
  EXPECT_NEAR(flat[2], 0.2f / 2.2f, 1e-4);
  EXPECT_EQ(flat[3], 0.0f);
  EXPECT_EQ(flat[4], 0.0f);
  // T = 0.5: squares 0.4096, 0.0256, 0.0016 (five), summing to 0.4432.
  const std::vector<float> sharp = root_priors(0.5f);
  EXPECT_NEAR(sharp[0], 0.4096f / 0.4432f, 1e-4);
  EXPECT_NEAR(sharp[2], 0.0016f / 0.4432f, 1e-4);
  SearchConfig bad;
  bad.policy_temperature = 0;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
  bad.policy_temperature = std::nanf("");
  EXPECT_THROW(bad.validate(), std::invalid_argument);
}

TEST(Search, WrongNumberOfPriorsIsAnError) {
  ScriptedEvaluator eval(
      nullptr, [](const State&, const std::vector<Action>&) { return std::vector<float>{1.0f}; });
  EXPECT_THROW(search_position(kBlock, SearchConfig{}, eval), std::runtime_error);
}

// Stepping many searches together gives each the same search as running it alone.
TEST(BatchStepper, SameResultsAsRunningAlone) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 50;
  config.self_play = true;
  config.temperature = {1.0f, 0.0f, 9};
  ScriptedEvaluator alone_eval, batched_eval;
  std::vector<std::vector<Action>> alone;
  for (uint64_t g = 0; g < 6; ++g) {
    config.seed = 100 + g;
    Search s(game, config);
    s.reset(*game->initial_state());
    std::vector<Action> moves;
    while (!s.root_state().outcome().over) {
      moves.push_back(s.run(alone_eval).action);
      s.advance(moves.back());
    }
    alone.push_back(moves);
  }
  std::vector<std::unique_ptr<Search>> searches;
  std::vector<Search*> active;
  std::vector<std::vector<Action>> batched(6);
  for (uint64_t g = 0; g < 6; ++g) {
    config.seed = 100 + g;
    searches.push_back(std::make_unique<Search>(game, config));
    searches.back()->reset(*game->initial_state());
    active.push_back(searches.back().get());
  }
  BatchStepper stepper(batched_eval);
  size_t max_batch = 0;
  while (!active.empty()) {
    max_batch = std::max(max_batch, stepper.step(active));
    for (size_t i = 0; i < active.size();) {
      Search* s = active[i];
      if (s->done()) {
        const Action a = s->result().action;
        batched[std::find_if(searches.begin(), searches.end(),
                             [&](auto& p) { return p.get() == s; }) -
                searches.begin()]
            .push_back(a);
        s->advance(a);
        if (s->root_state().outcome().over) {
          active.erase(active.begin() + i);
          continue;
        }
      }
      ++i;
    }
  }
  EXPECT_EQ(alone, batched);
  EXPECT_EQ(max_batch, 6u);  // one leaf from each game per network call
  EXPECT_EQ(alone_eval.positions, batched_eval.positions);
  EXPECT_LT(batched_eval.calls * 3, alone_eval.calls);
}

TEST(SeizeSearch, SmokeTest) {
  const GamePtr game = load_game("seize-reference");
  SearchConfig config;
  config.simulations = 200;
  config.leaves_per_batch = 8;
  config.self_play = true;
  config.temperature = {1.0f, 0.0f, 4};
  UniformEvaluator eval;
  Search search(game, config);
  search.reset(*game->initial_state());
  std::vector<Action> legal;
  for (int move = 0; move < 6 && !search.root_state().outcome().over; ++move) {
    const SearchResult r = search.run(eval, move % 2 ? 2 : 1);
    search.root_state().legal_actions(legal);
    EXPECT_EQ(r.actions.size(), legal.size());
    EXPECT_NE(std::find(legal.begin(), legal.end(), r.action), legal.end());
    EXPECT_EQ(std::accumulate(r.visits.begin(), r.visits.end(), 0u) + 1, r.root_visits);
    EXPECT_EQ(r.simulations, 200);
    search.advance(r.action);
  }
  const TreeStats t = search.tree_stats();
  EXPECT_GT(t.nodes, 0u);
  EXPECT_EQ(sizeof(Node), 32u);
  EXPECT_EQ(sizeof(Edge), 8u);
}

TEST(SeizeSearch, GumbelAndBatchedGames) {
  const GamePtr game = load_game("seize-reference");
  SearchConfig config;
  config.simulations = 64;
  config.gumbel_actions = 8;
  config.self_play = true;
  UniformEvaluator eval;
  std::vector<std::unique_ptr<Search>> searches;
  std::vector<Search*> ptrs;
  for (int g = 0; g < 4; ++g) {
    config.seed = g + 1;
    searches.push_back(std::make_unique<Search>(game, config));
    searches.back()->reset(*game->initial_state());
    ptrs.push_back(searches.back().get());
  }
  BatchStepper stepper(eval);
  int moves = 0;
  while (moves < 12) {
    stepper.step(ptrs, 4);
    for (Search* s : ptrs) {
      if (!s->done()) continue;
      const SearchResult r = s->result();
      EXPECT_TRUE(r.gumbel);
      EXPECT_EQ(r.simulations, 64);
      s->advance(r.action);
      ++moves;
    }
  }
}

}  // namespace
}  // namespace pincer::mcts

namespace pincer::mcts {
namespace {

TEST(RolloutEvaluator, ValuesFromRandomPlayouts) {
  const GamePtr game = testing::make_tictactoe();
  RolloutEvaluator eval(200, 20, 3);
  const auto draw = game->parse_state("xox/xoo/ox. x");  // one move left, a draw
  const auto win = game->parse_state(kWinInOne);
  std::vector<Action> l1, l2;
  draw->legal_actions(l1);
  win->legal_actions(l2);
  std::vector<Evaluation> out, again;
  eval.evaluate({{draw.get(), &l1}, {win.get(), &l2}}, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].wdl, (std::array<float, 3>{0, 1, 0}));
  EXPECT_EQ(out[0].priors, std::vector<float>{1.0f});
  // x wins at once with one move in four, and more often later.
  EXPECT_GT(out[1].wdl[0], 0.25f);
  EXPECT_NEAR(out[1].wdl[0] + out[1].wdl[1] + out[1].wdl[2], 1.0f, 1e-5);
  eval.evaluate({{win.get(), &l2}}, again);
  EXPECT_EQ(again[0].wdl, out[1].wdl);  // deterministic per position
}

}  // namespace
}  // namespace pincer::mcts

namespace pincer::mcts {
namespace {

TEST(Search, StopEndsTheMoveEarly) {
  const GamePtr game = load_game("seize-reference");
  SearchConfig config;
  config.simulations = 1000;
  UniformEvaluator eval;
  Search search(game, config);
  search.reset(*game->initial_state());
  LeafBatch batch;
  std::vector<Evaluation> out;
  for (int i = 0; i < 11; ++i) {  // the root, then ten simulations
    ASSERT_EQ(search.collect(batch, 1), 1u);
    eval.evaluate(batch.requests(), out);
    search.deliver(batch, out);
  }
  EXPECT_FALSE(search.done());
  search.stop();
  EXPECT_TRUE(search.done());
  EXPECT_EQ(search.collect(batch, 1), 0u);
  EXPECT_EQ(search.result().simulations, 10);
  // The next move searches normally again; a time limit stops it too.
  search.advance(search.result().action);
  EXPECT_FALSE(search.done());
  config.simulations = 100'000'000;
  Search timed(game, config);
  timed.reset(*game->initial_state());
  const SearchResult r = timed.run(eval, 2, 0.05);
  EXPECT_GT(r.simulations, 0);
  EXPECT_LT(r.simulations, 100'000'000);
}

}  // namespace
}  // namespace pincer::mcts

namespace pincer::mcts {
namespace {

// Throws on its `fail_on`-th call (counting from 1), else answers uniformly.
class FailingEvaluator : public Evaluator {
 public:
  explicit FailingEvaluator(int fail_on) : fail_on_(fail_on) {}
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override {
    if (++calls_ == fail_on_) throw std::runtime_error("network gone");
    uniform_.evaluate(requests, out);
  }

 private:
  int fail_on_;
  std::atomic<int> calls_{0};
  UniformEvaluator uniform_;
};

TEST(Search, EvaluatorErrorsLeaveASearchThatCanGoOn) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 64;
  config.leaves_per_batch = 4;
  // From the empty board no game ends within four plies, so 64 simulations need at least a
  // dozen network calls whatever the threads' timing (near a won position most simulations
  // end in the win and need none: a third call may never come).
  UniformEvaluator eval;
  Search fresh(game, config);
  fresh.reset(*game->initial_state());
  const SearchResult unfailed = fresh.run(eval, 1);
  for (int threads : {1, 3}) {
    for (int fail_on : {1, 3}) {  // the root's evaluation, a later batch
      SCOPED_TRACE(std::to_string(threads) + " threads, failing call " + std::to_string(fail_on));
      Search search(game, config);
      search.reset(*game->initial_state());
      FailingEvaluator failing(fail_on);
      EXPECT_THROW(search.run(failing, threads), std::runtime_error);
      const SearchResult r = search.run(eval, threads);
      EXPECT_EQ(r.simulations, 64);
      EXPECT_EQ(std::accumulate(r.visits.begin(), r.visits.end(), 0u) + 1, r.root_visits);
      // On one thread the failed batch is undone exactly: the same tree as a search that never
      // failed.
      if (threads == 1) {
        EXPECT_EQ(r.visits, unfailed.visits);
      }
      search.advance(r.action);  // nothing left in flight
    }
  }
  config.solver = false;  // the batch stepper's searches below need more than two calls
  // The same through a BatchStepper.
  std::vector<std::unique_ptr<Search>> searches;
  std::vector<Search*> ptrs;
  for (int g = 0; g < 3; ++g) {
    searches.push_back(std::make_unique<Search>(game, config));
    searches.back()->reset(*game->parse_state(kWinInOne));
    ptrs.push_back(searches.back().get());
  }
  FailingEvaluator failing(2);
  BatchStepper bad(failing);
  bad.step(ptrs, 4);
  EXPECT_THROW(bad.step(ptrs, 4), std::runtime_error);
  BatchStepper good(eval);
  while (std::any_of(ptrs.begin(), ptrs.end(), [](Search* s) { return !s->done(); })) {
    good.step(ptrs, 4);
  }
  for (Search* s : ptrs) {
    const SearchResult r = s->result();
    EXPECT_EQ(r.action, 8);
    EXPECT_EQ(std::accumulate(r.visits.begin(), r.visits.end(), 0u), 64u);
  }
}

TEST(Search, BadPriorsCountIsRefusedBeforeAnyChange) {
  const GamePtr game = testing::make_tictactoe();
  Search search(game, SearchConfig{});
  search.reset(*game->initial_state());
  UniformEvaluator eval;
  LeafBatch batch;
  std::vector<Evaluation> out;
  search.collect(batch, 1);
  eval.evaluate(batch.requests(), out);
  search.deliver(batch, out);
  ASSERT_EQ(search.collect(batch, 3), 3u);
  eval.evaluate(batch.requests(), out);
  out[2].priors.pop_back();
  EXPECT_THROW(search.deliver(batch, out), std::runtime_error);
  search.cancel(batch);
  EXPECT_EQ(search.stats().simulations, 0u);
  EXPECT_EQ(search.run(eval).simulations, 100);
}

}  // namespace
}  // namespace pincer::mcts
