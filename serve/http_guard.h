// The HTTP connections of `pincer serve`, guarded against slow and greedy clients. cpp-httplib
// gives every connection a handler thread from a fixed pool and bounds each read, not a whole
// request: a client that sends one header line every few seconds (slowloris) holds its thread
// for good, and twenty such clients hold them all. GuardedServer serves each connection itself
// (cpp-httplib's process_request does the HTTP) over a stream that gives every request a
// deadline for all of its bytes (request line, headers and body), and it serves at most a
// number of connections of one client address at once: past it a connection gets 503 at once.
#pragma once

#include <httplib.h>

#include <map>
#include <mutex>
#include <string>

namespace pincer::serve {

struct ConnectionLimits {
  double request_seconds = 10;    // a whole request must arrive within this (0: no deadline)
  int max_per_address = 16;       // connections served at once per client address (0: no cap)
  double read_timeout = 10;       // one read
  double write_timeout = 10;      // one write
  double keep_alive_seconds = 5;  // an idle connection is closed after this
  size_t keep_alive_requests = 100;
};

class GuardedServer : public httplib::Server {
 public:
  explicit GuardedServer(ConnectionLimits limits);
  // Connections of `address` being served now.
  int connections_of(const std::string& address) const;

 private:
  bool process_and_close_socket(socket_t sock) override;
  bool admit(const std::string& address);
  void release(const std::string& address);

  ConnectionLimits limits_;
  mutable std::mutex mutex_;
  std::map<std::string, int> per_address_;
};

}  // namespace pincer::serve
