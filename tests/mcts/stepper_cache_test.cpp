// The batch stepper's error handling and the evaluation cache's keys: what a search shares
// between steps and between models.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "mcts/search.h"
#include "tests/mcts/fakes.h"
#include "tests/support/tictactoe.h"

namespace pincer::mcts {
namespace {

using testing::ScriptedEvaluator;

// Answers uniformly, except that on its `bad_call`-th call the answer to the last request has one
// prior too few (a broken network output).
class BadAnswerEvaluator : public Evaluator {
 public:
  explicit BadAnswerEvaluator(int bad_call) : bad_call_(bad_call) {}
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override {
    uniform_.evaluate(requests, out);
    if (++calls_ == bad_call_) out.back().priors.pop_back();
  }

 private:
  int bad_call_;
  int calls_ = 0;
  UniformEvaluator uniform_;
};

// A bad answer for one search of a step is found while delivering: the searches not delivered
// yet must get their leaves back, and the next step must work for all of them.
TEST(BatchStepper, BadAnswerLeavesNothingInFlight) {
  const GamePtr game = testing::make_tictactoe();
  SearchConfig config;
  config.simulations = 48;
  std::vector<std::unique_ptr<Search>> searches;
  std::vector<Search*> ptrs;
  for (int g = 0; g < 3; ++g) {
    searches.push_back(std::make_unique<Search>(game, config));
    searches.back()->reset(*game->initial_state());
    ptrs.push_back(searches.back().get());
  }
  BadAnswerEvaluator bad(2);
  BatchStepper stepper(bad);
  EXPECT_EQ(stepper.step(ptrs, 4), 3u);  // the three roots
  EXPECT_THROW(stepper.step(ptrs, 4), std::runtime_error);
  while (std::any_of(ptrs.begin(), ptrs.end(), [](Search* s) { return !s->done(); })) {
    stepper.step(ptrs, 4);
  }
  for (Search* s : ptrs) {
    const SearchResult r = s->result();
    EXPECT_EQ(r.simulations, 48);
    EXPECT_EQ(std::accumulate(r.visits.begin(), r.visits.end(), 0u) + 1, r.root_visits);
    s->advance(r.action);  // throws if anything were still in flight
  }
}

// An answer of the old model that arrives after the switch (cache cleared) is not cached.
TEST(EvalCache, AnswersInFlightAtAModelSwitchAreNotCached) {
  const GamePtr game = testing::make_tictactoe();
  EvalCache cache(1 << 10);
  Search search(game, SearchConfig{}, &cache);
  search.reset(*game->initial_state());
  UniformEvaluator old_model;
  LeafBatch batch;
  std::vector<Evaluation> out;
  ASSERT_EQ(search.collect(batch, 1), 1u);  // the root
  old_model.evaluate(batch.requests(), out);
  cache.clear();  // the model changes while the root's evaluation is in flight
  search.deliver(batch, out);
  EXPECT_EQ(cache.stats().inserts, 0u);
  Evaluation e;
  EXPECT_FALSE(cache.lookup(game->initial_state()->eval_key(), 9, e));
  // Leaves collected after the switch are cached as before.
  ASSERT_EQ(search.collect(batch, 2), 2u);
  old_model.evaluate(batch.requests(), out);
  search.deliver(batch, out);
  EXPECT_EQ(cache.stats().inserts, 2u);
  // An entry of an earlier generation never answers.
  const uint64_t before = cache.generation();
  cache.insert(42, before, out[0]);
  EXPECT_TRUE(cache.lookup(42, out[0].priors.size(), e));
  cache.clear();
  EXPECT_FALSE(cache.lookup(42, out[0].priors.size(), e));
  cache.insert(42, before, out[0]);  // too late: dropped
  EXPECT_FALSE(cache.lookup(42, out[0].priors.size(), e));
}

// Two positions that differ only in a counter the network reads (here the ply count) must not
// share a cache entry: each search sees the network's value of its own root.
TEST(EvalCache, KeyedOnEverythingTheNetworkReads) {
  const GamePtr game = load_game("seize-reference");
  const std::string start = game->initial_state()->to_text();  // "... r 0 0-0"
  const std::string later = start.substr(0, start.size() - 5) + "40 0-0";
  ASSERT_EQ(game->parse_state(start)->hash(), game->parse_state(later)->hash());
  // The value depends on the ply count (the text), as a network's may.
  ScriptedEvaluator eval([&](const State& s) {
    return s.to_text() == later ? std::array<float, 3>{0.7f, 0.2f, 0.1f}
                                : std::array<float, 3>{0.1f, 0.2f, 0.7f};
  });
  EvalCache cache(1 << 12);
  SearchConfig config;
  config.simulations = 8;
  Search a(game, config, &cache), b(game, config, &cache);
  a.reset(*game->parse_state(start));
  b.reset(*game->parse_state(later));
  EXPECT_NEAR(a.run(eval).nn_wdl[0], 0.1f, 1e-6);
  EXPECT_NEAR(b.run(eval).nn_wdl[0], 0.7f, 1e-6);
}

}  // namespace
}  // namespace pincer::mcts
