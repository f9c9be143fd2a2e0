#include "train/selfplay_thread.h"

#include <spdlog/spdlog.h>

namespace pincer {

SelfPlayThread::SelfPlayThread(SelfPlay& selfplay) {
  thread_ = std::thread([this, &selfplay] {
    try {
      selfplay.run(stop_);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mu_);
      error_ = std::current_exception();
      failed_ = true;
    }
  });
}

SelfPlayThread::~SelfPlayThread() {
  try {
    stop_and_join();
  } catch (...) {
    spdlog::error("self-play thread: cannot join");
  }
}

void SelfPlayThread::stop_and_join() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void SelfPlayThread::rethrow_failure() {
  std::exception_ptr e;
  {
    std::lock_guard<std::mutex> lock(error_mu_);
    e = error_;
  }
  if (e) std::rethrow_exception(e);
}

}  // namespace pincer
