// Search overhead on SE!ZE with a free (uniform) evaluator: everything measured here is time the
// network does not use. Run: build/bench/pincer_bench_mcts [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "mcts/search.h"

namespace pincer::mcts {
namespace {

GamePtr bench_game() {
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

// One game, one thread: a move's search per iteration (tree reuse on), leaves_per_batch = arg 0,
// Gumbel actions arg 1, leaf tactics arg 2 (docs/search.md).
void BM_SingleSearch(benchmark::State& state) {
  SearchConfig config;
  config.simulations = 800;
  config.leaves_per_batch = static_cast<int>(state.range(0));
  config.self_play = true;
  config.temperature = {1.0f, 0.0f, 30};
  config.gumbel_actions = static_cast<int>(state.range(1));
  config.tactics = static_cast<int>(state.range(2));
  UniformEvaluator eval;
  Search search(bench_game(), config);
  search.reset(*bench_game()->initial_state());
  TreeStats tree;
  for (auto _ : state) {
    const SearchResult r = search.run(eval);
    tree = search.tree_stats();
    search.advance(r.action);
    if (search.root_state().outcome().over || search.move_number() > 200) {
      search.reset(*bench_game()->initial_state());
    }
  }
  report(state, search.stats().simulations, eval.positions(), eval.calls(), tree);
}
// The leaves' capture search (docs/search.md): arg 0 = 0 off, 1 leaf values mixed with it
// (quiescence_weight 0.5), 2 that plus one full-width ply (quiescence_plies 1), 3 implicit
// minimax (minimax_weight 0.5), 4 capture priors (capture_prior 0.3); tactics 1.
void BM_LeafCaptureSearch(benchmark::State& state) {
  SearchConfig config;
  config.simulations = 800;
  config.self_play = true;
  config.temperature = {1.0f, 0.0f, 30};
  const int variant = static_cast<int>(state.range(0));
  if (variant == 1 || variant == 2) config.quiescence_weight = 0.5f;
  if (variant == 2) config.quiescence_plies = 1;
  if (variant == 3) config.minimax_weight = 0.5f;
  if (variant == 4) config.capture_prior = 0.3f;
  if (variant == 5) config.heuristic_prior = 0.3f;
  UniformEvaluator eval;
  Search search(bench_game(), config);
  search.reset(*bench_game()->initial_state());
  TreeStats tree;
  for (auto _ : state) {
    const SearchResult r = search.run(eval);
    tree = search.tree_stats();
    search.advance(r.action);
    if (search.root_state().outcome().over || search.move_number() > 200) {
      search.reset(*bench_game()->initial_state());
    }
  }
  report(state, search.stats().simulations, eval.positions(), eval.calls(), tree);
  state.counters["capture_nodes/leaf"] =
      static_cast<double>(search.stats().capture_nodes) /
      static_cast<double>(std::max<uint64_t>(1, eval.positions()));
}
BENCHMARK(BM_LeafCaptureSearch)
    ->ArgName("variant")
    ->DenseRange(0, 5)
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_SingleSearch)
    ->ArgNames({"leaves", "gumbel", "tactics"})
    ->Args({1, 0, 2})
    ->Args({1, 0, 1})
    ->Args({1, 0, 0})
    ->Args({8, 0, 1})
    ->Args({1, 16, 1})
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
    searches.push_back(std::make_unique<Search>(bench_game(), config));
    searches.back()->reset(*bench_game()->initial_state());
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
        s->reset(*bench_game()->initial_state());
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
  Search search(bench_game(), config);
  TreeStats tree;
  for (auto _ : state) {
    search.reset(*bench_game()->initial_state());
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

// A stand-in for one network running elsewhere (an inference thread on another core, or an
// accelerator): uniform answers, but each call holds the single network for
// fixed_us + per_position_us * batch microseconds (sleeping, so the CPU stays free for search).
class FakeNetwork : public Evaluator {
 public:
  FakeNetwork(double fixed_us, double per_position_us)
      : fixed_us_(fixed_us), per_position_us_(per_position_us) {}
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override {
    uniform_.evaluate(requests, out);
    std::lock_guard<std::mutex> lock(mutex_);
    const auto start = std::chrono::steady_clock::now();
    const double us = fixed_us_ + per_position_us_ * requests.size();
    std::this_thread::sleep_until(start + std::chrono::microseconds(static_cast<int64_t>(us)));
    busy_s_ += us * 1e-6;  // the cost asked for (sleeping may overshoot it on a busy machine)
  }
  double busy_s() const { return busy_s_; }

 private:
  double fixed_us_, per_position_us_;
  UniformEvaluator uniform_;
  std::mutex mutex_;
  double busy_s_ = 0;
};

// Self-play against a fake network costing 100 + 25/position microseconds: arg 0 stepper
// threads, each stepping 32 games. net_share is the fraction of wall time the network was busy;
// with two stepper threads one steps its games while the other's batch is in the network.
void BM_SelfPlayFakeNetwork(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  FakeNetwork net(100, 25);
  SearchConfig config;
  config.simulations = 100;
  config.self_play = true;
  config.temperature = {1.0f, 0.0f, 30};
  std::vector<std::vector<std::unique_ptr<Search>>> games(threads);
  for (int t = 0; t < threads; ++t) {
    for (int g = 0; g < 32; ++g) {
      config.seed = t * 100 + g + 1;
      games[t].push_back(std::make_unique<Search>(bench_game(), config));
      games[t].back()->reset(*bench_game()->initial_state());
    }
  }
  uint64_t evals = 0, steps = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    std::vector<std::thread> pool;
    std::vector<uint64_t> thread_evals(threads, 0), thread_steps(threads, 0);
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        std::vector<Search*> ptrs;
        for (auto& s : games[t]) ptrs.push_back(s.get());
        BatchStepper stepper(net);
        for (int step = 0; step < 40; ++step) {
          thread_evals[t] += stepper.step(ptrs);
          ++thread_steps[t];
          for (Search* s : ptrs) {
            if (!s->done()) continue;
            s->advance(s->result().action);
            if (s->root_state().outcome().over || s->move_number() > 200) {
              s->reset(*bench_game()->initial_state());
            }
          }
        }
      });
    }
    for (std::thread& t : pool) t.join();
    for (int t = 0; t < threads; ++t) evals += thread_evals[t], steps += thread_steps[t];
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  state.counters["evals/s"] = static_cast<double>(evals) / wall;
  state.counters["avg_batch"] = static_cast<double>(evals) / steps;
  state.counters["net_share"] = net.busy_s() / wall;
}
BENCHMARK(BM_SelfPlayFakeNetwork)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace pincer::mcts

BENCHMARK_MAIN();
