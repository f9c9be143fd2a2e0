// Engine speed per shipped ruleset through the generic interface and, for each game, its fast
// perft: legal-move generation, apply, the network input (encode) and perft from the start.
// Run: build/bench/pincer_bench_engine [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <random>

#include "engine/registry.h"

namespace pincer {
namespace {

// Positions from random games, so that the figures cover middle games too.
std::vector<std::unique_ptr<State>> sample_positions(const Game& game, int count) {
  std::vector<std::unique_ptr<State>> out;
  std::mt19937_64 rng(7);
  std::vector<Action> legal;
  while (static_cast<int>(out.size()) < count) {
    auto s = game.initial_state();
    for (int ply = 0; ply < 200 && static_cast<int>(out.size()) < count; ++ply) {
      s->legal_actions(legal);
      if (legal.empty()) break;
      if (ply % 7 == 3) out.push_back(s->clone());
      s->apply(legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)]);
    }
  }
  return out;
}

void BM_LegalActions(benchmark::State& state, const std::string& rules) {
  const GamePtr game = load_game(rules);
  const auto positions = sample_positions(*game, 256);
  std::vector<Action> legal;
  size_t i = 0, moves = 0;
  for (auto _ : state) {
    positions[i++ & 255]->legal_actions(legal);
    moves += legal.size();
    benchmark::DoNotOptimize(legal.data());
  }
  state.counters["moves/s"] =
      benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

void BM_CloneApply(benchmark::State& state, const std::string& rules) {
  const GamePtr game = load_game(rules);
  const auto positions = sample_positions(*game, 256);
  std::vector<std::vector<Action>> legal(positions.size());
  for (size_t k = 0; k < positions.size(); ++k) positions[k]->legal_actions(legal[k]);
  size_t i = 0;
  for (auto _ : state) {
    const size_t k = i++ & 255;
    if (legal[k].empty()) continue;
    auto child = positions[k]->clone();
    child->apply(legal[k][i % legal[k].size()]);
    benchmark::DoNotOptimize(child->hash());
  }
}

void BM_Encode(benchmark::State& state, const std::string& rules) {
  const GamePtr game = load_game(rules);
  const auto positions = sample_positions(*game, 256);
  std::vector<float> planes(static_cast<size_t>(game->input_shape().size()));
  size_t i = 0;
  for (auto _ : state) {
    positions[i++ & 255]->encode(planes.data());
    benchmark::DoNotOptimize(planes.data());
  }
  state.counters["positions/s"] =
      benchmark::Counter(static_cast<double>(i), benchmark::Counter::kIsRate);
}

void BM_Perft(benchmark::State& state, const std::string& rules) {
  const GamePtr game = load_game(rules);
  const auto start = game->initial_state();
  const int depth = static_cast<int>(state.range(0));
  uint64_t leaves = 0;
  for (auto _ : state) leaves += game->perft(*start, depth);
  state.counters["leaves/s"] =
      benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsRate);
}

const bool registered = [] {
  for (const std::string& rules : shipped_ruleset_names()) {
    benchmark::RegisterBenchmark(("legal_actions/" + rules).c_str(), BM_LegalActions, rules);
    benchmark::RegisterBenchmark(("clone_apply/" + rules).c_str(), BM_CloneApply, rules);
    benchmark::RegisterBenchmark(("encode/" + rules).c_str(), BM_Encode, rules);
    benchmark::RegisterBenchmark(("perft/" + rules).c_str(), BM_Perft, rules)
        ->Arg(4)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
}  // namespace pincer

BENCHMARK_MAIN();
