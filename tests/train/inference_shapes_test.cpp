// Inference services of several models at once over many batch sizes, as in `pincer train` when a
// gate starts next to self-play: oneDNN compiles primitives for every batch size, and once its
// primitive cache was full (1024 by default, LibTorch 1.13's oneDNN 2.6) evicting them while
// other threads compiled theirs corrupted memory (inference threw std::bad_alloc or
// std::bad_array_new_length). nn/model.cpp gives the cache room for every shape.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "engine/registry.h"
#include "nn/inference.h"
#include "nn/model.h"
#include "tests/train/helpers.h"

namespace pincer::testing {
namespace {

NetworkConfig three_blocks() {
  NetworkConfig n;
  n.set_blocks(3);
  n.set_channels(16);
  return n;
}

TEST(InferenceShapes, ThePrimitiveCacheHasRoomForEveryBatchSize) {
  GamePtr game = make_tictactoe();
  Model::create(*game, three_blocks(), "cpu", 1);
  using GetCapacity = int (*)(int*);
  auto get =
      reinterpret_cast<GetCapacity>(dlsym(RTLD_DEFAULT, "dnnl_get_primitive_cache_capacity"));
  if (!get) GTEST_SKIP() << "this LibTorch does not export oneDNN's API";
  int capacity = 0;
  ASSERT_EQ(get(&capacity), 0);
  EXPECT_GE(capacity, 65536);
}

TEST(InferenceShapes, NewServicesBesideABusyOneNeverFail) {
  GamePtr game = make_tictactoe();
  InferenceOptions o;
  o.max_batch = 256;
  o.max_wait_us = 0;
  o.precision = parse_precision("auto");  // bfloat16 where the CPU has it, as `pincer train`
  auto busy = std::make_shared<InferenceService>(
      std::shared_ptr<Model>(Model::create(*game, three_blocks(), "cpu", 1)), o);
  auto s = game->initial_state();
  std::vector<Action> legal;
  s->legal_actions(legal);
  std::atomic<bool> done{false};
  std::atomic<int> failures{0}, calls{0};
  // Calls of every batch size from `first` up to `largest`, then from 1 again, until `stop`.
  auto drive = [&](InferenceService& service, int first, int largest,
                   const std::atomic<bool>& stop) {
    std::vector<Evaluation> out;
    for (int n = first; !stop; n = n % largest + 1) {
      try {
        service.evaluate(std::vector<EvalRequest>(n, EvalRequest{s.get(), &legal}), out);
        ++calls;
      } catch (const std::exception&) {
        ++failures;
      }
    }
  };
  // "Self-play": every batch size from 1 to 200, over and over.
  std::thread selfplay([&] { drive(*busy, 1, 200, done); });
  // "Gates": two fresh models and services at a time, each driven by two callers, then dropped.
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(6);
  int gates = 0;
  while (std::chrono::steady_clock::now() < end && failures == 0) {
    std::vector<std::shared_ptr<InferenceService>> services;
    std::vector<std::thread> callers;
    for (int k = 0; k < 2; ++k) {
      services.push_back(std::make_shared<InferenceService>(
          std::shared_ptr<Model>(Model::create(*game, three_blocks(), "cpu", 2 + gates)), o));
    }
    std::atomic<bool> gate_done{false};
    for (int k = 0; k < 4; ++k) {
      callers.emplace_back([&, k] { drive(*services[k % 2], 1 + k, 60, gate_done); });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    gate_done = true;
    for (auto& t : callers) t.join();
    ++gates;
  }
  done = true;
  selfplay.join();
  EXPECT_EQ(failures.load(), 0) << "after " << gates << " gates and " << calls.load() << " calls";
  EXPECT_GT(gates, 3);
}

}  // namespace
}  // namespace pincer::testing
