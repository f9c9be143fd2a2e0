#include "nn/inference.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "engine/clock.h"
#include "engine/thread_name.h"

namespace pincer {

struct InferenceService::Call {
  int n = 0;
  std::vector<float> input;  // n * input_size
  std::vector<int> index;    // policy indices of every request's legal actions, flattened
  std::vector<int> offset;   // n + 1 offsets into `index`
  std::vector<Evaluation>* out = nullptr;
  int next = 0;  // requests answered so far (a call may span batches)
  double queued_at = 0;
  std::thread::id caller = std::this_thread::get_id();
  bool done = false;
  std::exception_ptr error;
  std::mutex m;
  std::condition_variable cv;
};

InferenceService::InferenceService(std::shared_ptr<Model> model, InferenceOptions options)
    : options_(options), model_(std::move(model)) {
  if (!model_) throw std::invalid_argument("InferenceService needs a model");
  options_.max_batch = std::max(1, options_.max_batch);
  options_.max_wait_us = std::max(0, options_.max_wait_us);
  options_.threads = std::max(1, options_.threads);
  expected_callers_ = options_.expected_callers;
  stats_start_ = steady_seconds();
  thread_ = std::thread([this] {
    set_thread_name("inference");
    run();
  });
}

InferenceService::~InferenceService() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void InferenceService::set_model(std::shared_ptr<Model> model) {
  std::lock_guard<std::mutex> lock(mutex_);
  next_model_ = std::move(model);
}

std::shared_ptr<Model> InferenceService::model() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return next_model_ ? next_model_ : model_;
}

void InferenceService::set_expected_callers(int n) {
  expected_callers_ = n;
  wake_.notify_all();
}

InferenceStats InferenceService::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  InferenceStats s = stats_;
  s.wall_s = steady_seconds() - stats_start_;
  return s;
}

void InferenceService::reset_stats() {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  stats_ = InferenceStats{};
  stats_start_ = steady_seconds();
}

void InferenceService::evaluate(const std::vector<EvalRequest>& requests,
                                std::vector<Evaluation>& out) {
  out.resize(requests.size());
  if (requests.empty()) return;
  std::shared_ptr<Model> m = model();
  const int size = m->input_size();
  Call call;
  call.n = static_cast<int>(requests.size());
  call.input.resize(size_t(call.n) * size);
  call.offset.reserve(call.n + 1);
  call.offset.push_back(0);
  for (int i = 0; i < call.n; ++i) {
    const EvalRequest& r = requests[i];
    r.state->encode(call.input.data() + size_t(i) * size);
    for (Action a : *r.legal) call.index.push_back(r.state->policy_index(a));
    call.offset.push_back(static_cast<int>(call.index.size()));
  }
  call.out = &out;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    call.queued_at = steady_seconds();
    last_seen_[call.caller] = call.queued_at;
    queue_.push_back(&call);
  }
  wake_.notify_one();
  std::unique_lock<std::mutex> lock(call.m);
  call.cv.wait(lock, [&] { return call.done; });
  if (call.error) std::rethrow_exception(call.error);
}

void InferenceService::run() {
  set_torch_threads(options_.threads);
  std::vector<Call*> calls;
  while (true) {
    calls.clear();
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_ && queue_.empty()) return;
      // Wait for a full batch, the deadline, or every expected caller (when none are declared:
      // every caller seen lately, so that a lone caller never waits for the deadline).
      const double deadline = queue_.front()->queued_at + options_.max_wait_us * 1e-6;
      while (!stop_) {
        int pending = 0;
        for (const Call* c : queue_) pending += c->n - c->next;
        const int declared = expected_callers_.load();
        const int expected = declared > 0 ? declared : recent_callers(steady_seconds());
        if (pending >= options_.max_batch) break;
        if (expected > 0 && static_cast<int>(queue_.size()) >= expected) break;
        const double left = deadline - steady_seconds();
        if (left <= 0) break;
        wake_.wait_for(lock, std::chrono::duration<double>(left));
      }
      if (next_model_) model_ = std::move(next_model_);
      int taken = 0;
      while (!queue_.empty() && taken < options_.max_batch) {
        Call* c = queue_.front();
        calls.push_back(c);
        const int rest = c->n - c->next;
        if (taken + rest <= options_.max_batch) {
          queue_.pop_front();
          taken += rest;
        } else {
          break;  // a call larger than the batch: this batch answers part of it
        }
      }
    }
    process(calls);
  }
}

int InferenceService::recent_callers(double now) {
  const double window = std::max(options_.max_wait_us, 1000) * 1e-6;
  for (auto it = last_seen_.begin(); it != last_seen_.end();) {
    it = now - it->second > window ? last_seen_.erase(it) : std::next(it);
  }
  return static_cast<int>(last_seen_.size());
}

void InferenceService::process(std::vector<Call*>& calls) {
  Model& model = *model_;
  const int size = model.input_size();
  const int actions = model.num_actions();
  const double t0 = steady_seconds();
  // Assemble the batch: (call, first request, count) slices.
  struct Slice {
    Call* call;
    int first, count;
  };
  std::vector<Slice> slices;
  int total = 0;
  for (Call* c : calls) {
    const int count = std::min(c->n - c->next, options_.max_batch - total);
    if (count <= 0) break;
    slices.push_back({c, c->next, count});
    total += count;
  }
  input_.resize(size_t(total) * size);
  logits_.resize(size_t(total) * actions);
  wdl_.resize(size_t(total) * 3);
  points_.resize(size_t(total));
  const bool points = model.has_points_head();
  int row = 0;
  for (const Slice& s : slices) {
    std::memcpy(input_.data() + size_t(row) * size, s.call->input.data() + size_t(s.first) * size,
                sizeof(float) * size_t(s.count) * size);
    row += s.count;
  }
  std::exception_ptr error;
  try {
    if (model.precision() != options_.precision) model.set_precision(options_.precision);
    model.infer(input_.data(), total, logits_.data(), wdl_.data(), points_.data());
  } catch (...) {
    error = std::current_exception();
    spdlog::error("inference failed on a batch of {}", total);
  }
  row = 0;
  for (const Slice& s : slices) {
    Call& c = *s.call;
    if (error) {
      row += s.count;
      c.error = error;
      continue;
    }
    for (int i = s.first; i < s.first + s.count; ++i, ++row) {
      Evaluation& e = (*c.out)[i];
      const float* lg = logits_.data() + size_t(row) * actions;
      const int b = c.offset[i], n = c.offset[i + 1] - b;
      e.priors.resize(n);
      float mx = -1e30f;
      for (int k = 0; k < n; ++k) mx = std::max(mx, lg[c.index[b + k]]);
      float sum = 0;
      for (int k = 0; k < n; ++k) sum += (e.priors[k] = std::exp(lg[c.index[b + k]] - mx));
      const float inv = sum > 0 ? 1.0f / sum : 0.0f;
      for (float& p : e.priors) p *= inv;
      const float* v = wdl_.data() + size_t(row) * 3;
      e.wdl = {v[0], v[1], v[2]};
      if (points) {
        e.points = points_[row];
      } else {
        e.points.reset();
      }
    }
  }
  {
    // Counted before anyone is answered, so that a caller never sees stats without its batch.
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats_.batches += 1;
    stats_.evals += total;
    stats_.network_s += steady_seconds() - t0;
  }
  {
    // An answered caller counts as seen now: it is about to call again if it still searches.
    std::lock_guard<std::mutex> lock(mutex_);
    const double now = steady_seconds();
    for (const Slice& s : slices) last_seen_[s.call->caller] = now;
  }
  for (const Slice& s : slices) {
    Call& c = *s.call;
    c.next = s.first + s.count;
    if (c.next == c.n || error) {
      if (error) {
        // A failed call is answered at once, even if part of it still waits in the queue.
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.erase(std::remove(queue_.begin(), queue_.end(), &c), queue_.end());
      }
      std::lock_guard<std::mutex> lock(c.m);
      c.done = true;
      c.cv.notify_one();
    }
  }
}

}  // namespace pincer
