// A redis-server of its own for a test: started on a free loopback port with a temporary
// folder, stopped (SIGTERM, then waited for) when the object goes.
#pragma once

#include <string>

namespace pincer::testing {

class RedisServer {
 public:
  // Whether redis-server is on the PATH (tests skip without it).
  static bool available();
  // Starts it (port 0: a free one); throws std::runtime_error when it does not answer in 10 s.
  explicit RedisServer(const std::string& dir, int port = 0);
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int port() const { return port_; }
  std::string url(const std::string& run, const std::string& options = "") const;
  // Stops the server (SIGKILL when `hard`), and starts it again on the same port and folder.
  void stop(bool hard = false);
  void start();

 private:
  std::string dir_;
  int port_ = 0;
  int pid_ = -1;
};

}  // namespace pincer::testing
