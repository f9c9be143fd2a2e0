// Search overhead on SE!ZE with a free (uniform) evaluator: everything measured here is time the
// network does not use. Run: build-*/mcts/pincer_bench_mcts [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "mcts/search.h"

namespace pincer::mcts {
namespace {

GamePtr seize() {
  static const GamePtr game = load_game("seize-reference");
  return game;
}

// Counters shared by the benchmarks: simulations per second and the tree's bytes per node.
void report(benchmark::State& state, uint64_t sims, uint64_t evals, uint64_t calls,
            const TreeStats& tree) {
  state.counters["sims/s"] =
      benchmark::Counter(static_cast<double>(sims), benchmark::Counter::kIsRate);
  state.counters["evals/s"] =
      benchmark::Counter(static_cast<double>(evals), benchmark::Counter::kIsRate);
  if (calls) state.counters["avg_batch"] = static_cast<double>(evals) / calls;
  state.counters["bytes/node"] = tree.bytes_per_node();
  state.counters["nodes"] = static_cast<double>(tree.nodes);
}

// One game, one thread: a move's search per iteration (tree reuse on), leaves_per_batch = arg 0.
void BM_SingleSearch(benchmark::State& state) {
  SearchConfig config;
  config.simulations = 800;
  config.leaves_per_batch = static_cast<int>(state.range(0));
  config.self_play = true;
  config.temperature = {1.0f, 0.0f, 30};
  config.gumbel_actions = static_cast<int>(state.range(1));
  UniformEvaluator eval;
  Search search(seize(), config);
  search.reset(*seize()->initial_state());
  TreeStats tree;
  for (auto _ : state) {
    const SearchResult r = search.run(eval);
    tree = search.tree_stats();
    search.advance(r.action);
    if (search.root_state().outcome().over || search.move_number() > 200) {
      search.reset(*seize()->initial_state());
    }
  }
  report(state, search.stats().simulations, eval.positions(), eval.calls(), tree);
}
BENCHMARK(BM_SingleSearch)
    ->ArgNames({"leaves", "gumbel"})
    ->Args({1, 0})
    ->Args({8, 0})
    ->Args({1, 16})
    ->Unit(benchmark::kMillisecond);

// Self-play shape: arg 0 games stepped together by one thread, one batch per step.
void BM_BatchedSelfPlay(benchmark::State& state) {
  SearchConfig config;
  config.simulations = 200;
  config.self_play = true;
  config.temperature = {1.0f, 0.0f, 30};
  config.full_search_probability = 0.25f;
  config.fast_simulations = 50;
  UniformEvaluator eval;
  std::vector<std::unique_ptr<Search>> searches;
  std::vector<Search*> ptrs;
  for (int g = 0; g < state.range(0); ++g) {
    config.seed = g + 1;
    searches.push_back(std::make_unique<Search>(seize(), config));
    searches.back()->reset(*seize()->initial_state());
    ptrs.push_back(searches.back().get());
  }
  BatchStepper stepper(eval);
  const int leaves = static_cast<int>(state.range(1));
  for (auto _ : state) {
    stepper.step(ptrs, leaves);
    for (Search* s : ptrs) {
      if (!s->done()) continue;
      s->advance(s->result().action);
      if (s->root_state().outcome().over || s->move_number() > 200) {
        s->reset(*seize()->initial_state());
      }
    }
  }
  uint64_t sims = 0;
  for (Search* s : ptrs) sims += s->stats().simulations;
  report(state, sims, eval.positions(), eval.calls(), ptrs[0]->tree_stats());
}
BENCHMARK(BM_BatchedSelfPlay)->ArgNames({"games", "leaves"})->Args({32, 1})->Args({16, 4});

// Several threads on one tree (virtual loss), as `play` would search.
void BM_ThreadedSearch(benchmark::State& state) {
  SearchConfig config;
  config.simulations = 1600;
  config.leaves_per_batch = 8;
  config.reuse_tree = false;
  UniformEvaluator eval;
  Search search(seize(), config);
  TreeStats tree;
  for (auto _ : state) {
    search.reset(*seize()->initial_state());
    search.run(eval, static_cast<int>(state.range(0)));
    tree = search.tree_stats();
  }
  report(state, search.stats().simulations, eval.positions(), eval.calls(), tree);
}
BENCHMARK(BM_ThreadedSearch)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace pincer::mcts

BENCHMARK_MAIN();
