// Names the calling thread (as `top -H`, `perf` and gdb show it): Linux keeps at most 15
// characters; longer names are cut. Best effort: a failure changes nothing else.
#pragma once

#include <pthread.h>

#include <string>

namespace pincer {

inline void set_thread_name(const std::string& name) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
}

}  // namespace pincer
