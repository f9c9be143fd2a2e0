// The threaded parts of nn/: the batching inference service (concurrent callers merged into
// batches, calls split by the batch size) and readers of a model file being replaced. Torch-free
// (nn/model.h, nn/inference.h), so that the ThreadSanitizer build of these tests
// (pincer_tests_train_threads, scripts/sanitize.sh) compiles no torch header.
#include "nn/inference.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "engine/registry.h"
#include "nn/model.h"
#include "tests/train/helpers.h"
#include "tests/train/small_net.h"

namespace pincer::testing {
namespace {

TEST(AtomicFile, ConcurrentReadersNeverSeeAPartialModel) {
  ScratchDir dir("atomic-model");
  GamePtr game = make_tictactoe();
  auto a = Model::create(*game, small_net(), "cpu", 1);
  const std::string path = dir / "best.pt";
  a->save(path);
  std::atomic<bool> done{false};
  std::atomic<int> loads{0}, failures{0};
  std::thread reader([&] {
    while (!done) {
      try {
        Model::load(path, *game);
        ++loads;
      } catch (const std::exception&) {
        ++failures;
      }
    }
  });
  for (int i = 0; i < 30; ++i) a->save(path);
  done = true;
  reader.join();
  EXPECT_GT(loads.load(), 0);
  EXPECT_EQ(failures.load(), 0);
}

TEST(Inference, MatchesTheNetworkAndBatchesConcurrentCallers) {
  GamePtr game = make_tictactoe();
  std::shared_ptr<Model> model = Model::create(*game, small_net(), "cpu", 3);
  auto reference = model->clone();
  InferenceOptions o;
  o.max_batch = 32;
  o.max_wait_us = 20000;
  o.expected_callers = 8;
  InferenceService service(model, o);

  const std::vector<std::string> texts = {".../.../... x", "x.o/.x./... o", "xxo/oox/x.. o",
                                          "x../.o./... x"};
  std::vector<std::unique_ptr<State>> states;
  std::vector<std::vector<Action>> legal(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    states.push_back(game->parse_state(texts[i]));
    states[i]->legal_actions(legal[i]);
  }
  // Expected answers: softmax of the raw logits over the legal actions.
  std::vector<float> wdl;
  const auto logits = run(*reference, *game, texts, &wdl);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      std::vector<EvalRequest> req;
      for (size_t i = 0; i < texts.size(); ++i) req.push_back({states[i].get(), &legal[i]});
      std::vector<Evaluation> out;
      for (int rep = 0; rep < 20; ++rep) {
        service.evaluate(req, out);
        for (size_t i = 0; i < texts.size(); ++i) {
          const float* lg = logits.data() + i * 9;
          double sum = 0;
          for (Action a : legal[i]) sum += std::exp(lg[a]);
          for (size_t k = 0; k < legal[i].size(); ++k) {
            if (std::fabs(out[i].priors[k] - std::exp(lg[legal[i][k]]) / sum) > 1e-5) ++wrong;
          }
          for (int k = 0; k < 3; ++k) {
            if (std::fabs(out[i].wdl[k] - wdl[i * 3 + k]) > 1e-5) ++wrong;
          }
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  const InferenceStats s = service.stats();
  EXPECT_EQ(s.evals, 8u * 20u * texts.size());
  // Eight callers of four positions each merge into batches larger than one call.
  EXPECT_GT(s.avg_batch(), 4.0);
  EXPECT_LE(s.avg_batch(), 32.0);
  EXPECT_GT(s.evals_per_s(), 0.0);
}

// One request of tic-tac-toe's start, evaluated `calls` times by each of `threads` threads.
void call_concurrently(InferenceService& service, const Game& game, int threads, int calls) {
  auto s = game.initial_state();
  std::vector<Action> legal;
  s->legal_actions(legal);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      std::vector<EvalRequest> req(1, EvalRequest{s.get(), &legal});
      std::vector<Evaluation> out;
      for (int i = 0; i < calls; ++i) service.evaluate(req, out);
    });
  }
  for (auto& t : pool) t.join();
}

// A service of a fresh tic-tac-toe network with batches of up to 64 and no declared callers.
std::unique_ptr<InferenceService> service_waiting(const Game& game, int max_wait_us) {
  InferenceOptions o;
  o.max_batch = 64;
  o.max_wait_us = max_wait_us;
  return std::make_unique<InferenceService>(Model::create(game, small_net(), "cpu", 3), o);
}

TEST(Inference, ALoneCallerNeverWaitsForTheDeadline) {
  // One search alone on a service (a game of `pincer play`): nobody else can fill its batch, so
  // each call runs at once instead of after max_wait_us (here 10 s a call, 40 s for four).
  GamePtr game = make_tictactoe();
  auto service = service_waiting(*game, 10000000);
  const auto t0 = std::chrono::steady_clock::now();
  call_concurrently(*service, *game, 1, 4);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 9.0) << "a lone caller waited for the batch deadline";
  EXPECT_EQ(service->stats().batches, 4u);
}

TEST(Inference, CallersSeenLatelyShareBatchesWithoutADeclaredCount) {
  // Without expected_callers, the threads that called lately are waited for (up to max_wait_us),
  // so concurrent searches still merge their calls.
  GamePtr game = make_tictactoe();
  auto service = service_waiting(*game, 20000);
  call_concurrently(*service, *game, 4, 50);
  const InferenceStats s = service->stats();
  EXPECT_EQ(s.evals, 200u);
  EXPECT_GT(s.avg_batch(), 1.5);
}

TEST(Inference, SplitsCallsLargerThanTheBatch) {
  GamePtr game = make_tictactoe();
  std::shared_ptr<Model> model = Model::create(*game, small_net(), "cpu", 3);
  InferenceOptions o;
  o.max_batch = 3;
  InferenceService service(model, o);
  auto s = game->initial_state();
  std::vector<Action> legal;
  s->legal_actions(legal);
  std::vector<EvalRequest> req(10, EvalRequest{s.get(), &legal});
  std::vector<Evaluation> out;
  service.evaluate(req, out);
  ASSERT_EQ(out.size(), 10u);
  for (const auto& e : out) {
    ASSERT_EQ(e.priors.size(), 9u);
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(e.priors[k], out[0].priors[k], 1e-5);
  }
  EXPECT_EQ(service.stats().batches, 4u);
}

}  // namespace
}  // namespace pincer::testing
