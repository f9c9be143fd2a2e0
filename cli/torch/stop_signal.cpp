#include "cli/torch/stop_signal.h"

#include <csignal>

namespace pincer::cli {
namespace {

std::atomic<bool> g_stop{false};

void on_signal(int sig) {
  if (g_stop.exchange(true)) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}

}  // namespace

const std::atomic<bool>& install_stop_signal() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  return g_stop;
}

}  // namespace pincer::cli
