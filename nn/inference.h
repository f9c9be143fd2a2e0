// The batching inference service: an Evaluator that merges the requests of many searches (each
// in its own thread) into network batches run by one inference thread.
//
// A caller's evaluate() encodes its positions in its own thread, queues them and sleeps. The
// inference thread takes queued calls until it has `max_batch` positions, or until `max_wait_us`
// passed since the oldest queued call, or until every expected caller is waiting (then waiting
// longer cannot fill the batch further; without a declared number, every thread that called or
// was answered within max(max_wait_us, 1 ms) is expected, so a lone caller, like one game's
// search in `pincer play` or `analyze`, never waits for the deadline), runs the network once, and
// answers each caller with the softmax of the policy logits over its legal actions and the
// win/draw/loss probabilities.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "mcts/evaluator.h"
#include "nn/model.h"

namespace pincer {

struct InferenceOptions {
  int max_batch = 64;
  int max_wait_us = 2000;
  // Torch intra-op threads of the inference thread.
  int threads = 1;
  // Callers that will be blocked in evaluate() at once when all are waiting (0: unknown, then
  // the threads seen lately are expected). When that many calls are queued, the batch runs at
  // once instead of waiting for max_wait_us.
  int expected_callers = 0;
  // Inference arithmetic, applied to every model the service runs.
  Precision precision = default_precision();
};

struct InferenceStats {
  uint64_t batches = 0;
  uint64_t evals = 0;
  double network_s = 0;  // time inside the network (including input copy and softmax)
  double wall_s = 0;     // since the service started or stats were reset
  double avg_batch() const { return batches ? double(evals) / batches : 0.0; }
  double evals_per_s() const { return wall_s > 0 ? evals / wall_s : 0.0; }
  // Evaluations per second of network time: the throughput the network reaches in this load.
  double network_evals_per_s() const { return network_s > 0 ? evals / network_s : 0.0; }
};

class InferenceService : public Evaluator {
 public:
  InferenceService(std::shared_ptr<Model> model, InferenceOptions options);
  ~InferenceService() override;
  InferenceService(const InferenceService&) = delete;
  InferenceService& operator=(const InferenceService&) = delete;

  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override;

  // Replaces the model between two batches (e.g. a new best model in self-play).
  void set_model(std::shared_ptr<Model> model);
  std::shared_ptr<Model> model() const;
  // Changes expected_callers (e.g. when fewer games remain than at the start).
  void set_expected_callers(int n);

  InferenceStats stats() const;
  void reset_stats();

 private:
  struct Call;
  void run();
  void process(std::vector<Call*>& calls);
  // Threads that called or were answered within the activity window (forgets the others).
  // Needs mutex_.
  int recent_callers(double now);

  InferenceOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Call*> queue_;
  std::shared_ptr<Model> model_;
  std::shared_ptr<Model> next_model_;
  bool stop_ = false;
  std::atomic<int> expected_callers_{0};
  std::unordered_map<std::thread::id, double> last_seen_;  // guarded by mutex_

  mutable std::mutex stats_mutex_;
  InferenceStats stats_;
  double stats_start_ = 0;

  std::vector<float> input_, logits_, wdl_, points_;
  std::thread thread_;
};

}  // namespace pincer
