// Drivers of a move's search: Search::run (one tree, one or more threads) and BatchStepper (many
// trees, one network batch per step).
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "mcts/search.h"

namespace pincer::mcts {

SearchResult Search::run(Evaluator& evaluator, int threads, double max_seconds) {
  const int leaves = config_.leaves_per_batch;
  const auto start = std::chrono::steady_clock::now();
  std::mutex error_mutex;
  std::exception_ptr error;
  auto worker = [&] {
    LeafBatch batch;
    std::vector<Evaluation> out;
    while (true) {
      if (max_seconds > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
              max_seconds) {
        stop();
      }
      if (collect(batch, leaves) == 0) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (done_locked()) return;
        if (in_flight_ == 0) {
          // Nothing in flight and nothing collected: only possible if the tree cannot grow.
          tree_full_ = true;
          if (done_locked()) return;
        }
        delivered_.wait_for(lock, std::chrono::milliseconds(1));
        continue;
      }
      try {
        evaluator.evaluate(batch.requests(), out);
        deliver(batch, out);
      } catch (...) {
        cancel(batch);
        stop();  // the other threads finish their leaves and return
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        return;
      }
    }
  };
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  if (error) {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = false;  // stopped only to end the other threads; the move can go on
  }
  if (error) std::rethrow_exception(error);
  return result();
}

size_t BatchStepper::step(const std::vector<Search*>& searches, int leaves_per_search) {
  if (batches_.size() < searches.size()) batches_.resize(searches.size());
  for (size_t i = 0; i < searches.size(); ++i) batches_[i].clear();
  requests_.clear();
  // Everything from the first collect to the last deliver is undone on an error: whatever was
  // not delivered yet is cancelled, so no leaf stays in flight and the next step starts clean.
  try {
    for (size_t i = 0; i < searches.size(); ++i) {
      if (searches[i]->done()) continue;
      searches[i]->collect(batches_[i], leaves_per_search);
      const auto& r = batches_[i].requests();
      requests_.insert(requests_.end(), r.begin(), r.end());
    }
    if (requests_.empty()) return 0;
    evaluator_.evaluate(requests_, out_);
    if (out_.size() < requests_.size()) {
      throw std::runtime_error("mcts: the evaluator answered " + std::to_string(out_.size()) +
                               " of " + std::to_string(requests_.size()) + " requests");
    }
    size_t offset = 0;
    for (size_t i = 0; i < searches.size(); ++i) {
      const size_t n = batches_[i].size();
      if (n == 0) continue;
      searches[i]->deliver(batches_[i], out_.data() + offset);  // clears the batch
      offset += n;
    }
  } catch (...) {
    for (size_t i = 0; i < searches.size(); ++i) {
      if (!batches_[i].empty()) searches[i]->cancel(batches_[i]);
    }
    throw;
  }
  return requests_.size();
}

}  // namespace pincer::mcts
