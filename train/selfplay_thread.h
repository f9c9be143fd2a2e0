// Self-play in a background thread, owned by a scope: the thread is stopped and joined on every
// path out of the scope (a normal end or an exception), so an error in the trainer, the
// gatekeeper or a metrics write never destroys a joinable std::thread. Self-play's first failure
// is kept (under a lock) and flagged (atomically) for the thread that owns it.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "train/selfplay.h"

namespace pincer {

class SelfPlayThread {
 public:
  explicit SelfPlayThread(SelfPlay& selfplay);
  ~SelfPlayThread();
  SelfPlayThread(const SelfPlayThread&) = delete;
  SelfPlayThread& operator=(const SelfPlayThread&) = delete;

  // Whether self-play has failed (it stopped at its first failure).
  bool failed() const { return failed_.load(); }
  // Asks self-play to stop and waits for it (it writes its finished games first). Idempotent.
  void stop_and_join();
  // After stop_and_join(): rethrows self-play's failure, if any.
  void rethrow_failure();

 private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};
  std::mutex error_mu_;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace pincer
