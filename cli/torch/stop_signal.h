// SIGINT/SIGTERM for the long-running training commands: the first signal asks for a clean
// stop (checkpoint, records, report); a second one kills at once.
#pragma once

#include <atomic>

namespace pincer::cli {

// Installs the handlers and returns the flag they set.
const std::atomic<bool>& install_stop_signal();

}  // namespace pincer::cli
