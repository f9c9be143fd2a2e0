#include "serve/http_guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>

namespace pincer::serve {
namespace {

using Clock = std::chrono::steady_clock;

int millis(double seconds) { return static_cast<int>(std::max(0.0, seconds) * 1000); }

// Waits up to `ms` for `events` on `sock`: true when they came.
bool wait_for(int sock, short events, int ms) {
  pollfd p{sock, events, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, ms);
  } while (rc < 0 && errno == EINTR);
  return rc > 0 && (p.revents & (events | POLLHUP | POLLERR));
}

void address_of(int sock, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  ip.clear();
  port = 0;
  const int rc = peer ? ::getpeername(sock, reinterpret_cast<sockaddr*>(&addr), &len)
                      : ::getsockname(sock, reinterpret_cast<sockaddr*>(&addr), &len);
  if (rc != 0) return;
  char buf[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
    ::inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf);
    port = ntohs(a->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
    ::inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof buf);
    port = ntohs(a->sin6_port);
  }
  ip = buf;
}

// A connection's socket with a deadline for the request being read: every read waits at most
// the read timeout and never past the deadline (then it fails, and cpp-httplib drops the
// request). Reads are buffered, as cpp-httplib reads request lines a byte at a time.
class DeadlineStream : public httplib::Stream {
 public:
  DeadlineStream(int sock, const ConnectionLimits& limits) : sock_(sock), limits_(limits) {}

  void start_request() {
    deadline_ = limits_.request_seconds > 0
                    ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(limits_.request_seconds))
                    : Clock::time_point::max();
  }
  void end_request() { deadline_ = Clock::time_point::max(); }
  // A read of the request ran out of time (its deadline or the read timeout): the connection
  // must close, as what is left of the request would be read as the next one.
  bool expired() const { return expired_; }
  bool buffered() const { return begin_ < end_; }

  bool is_readable() const override {
    return buffered() || wait_for(sock_, POLLIN, read_wait_ms());
  }
  bool is_writable() const override {
    if (!wait_for(sock_, POLLOUT, millis(limits_.write_timeout))) return false;
    // A peer that has closed its end reads as readable with nothing to read.
    pollfd p{sock_, POLLIN, 0};
    if (::poll(&p, 1, 0) > 0) {
      char c;
      const ssize_t n = ::recv(sock_, &c, 1, MSG_PEEK | MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) return false;
    }
    return true;
  }
  ssize_t read(char* ptr, size_t size) override {
    if (!buffered()) {
      if (Clock::now() >= deadline_ || !wait_for(sock_, POLLIN, read_wait_ms())) {
        expired_ = true;  // by the deadline or the read timeout: the request is cut short
        return -1;
      }
      ssize_t n;
      do {
        n = ::recv(sock_, buf_.data(), buf_.size(), 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      begin_ = 0;
      end_ = static_cast<size_t>(n);
    }
    const size_t n = std::min(size, end_ - begin_);
    std::memcpy(ptr, buf_.data() + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!wait_for(sock_, POLLOUT, millis(limits_.write_timeout))) return -1;
    ssize_t n;
    do {
      n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address_of(sock_, true, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address_of(sock_, false, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  int read_wait_ms() const {
    double wait = limits_.read_timeout;
    if (deadline_ != Clock::time_point::max()) {
      wait = std::min(wait, std::chrono::duration<double>(deadline_ - Clock::now()).count());
    }
    return millis(wait);
  }

  int sock_;
  const ConnectionLimits& limits_;
  Clock::time_point deadline_ = Clock::time_point::max();
  bool expired_ = false;
  std::array<char, 4096> buf_;
  size_t begin_ = 0, end_ = 0;
};

void refuse(int sock) {
  static const std::string body = R"({"error":"busy: too many connections from this address"})";
  const std::string reply =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\nConnection: close\r\nRetry-After: 1\r\n\r\n" + body;
  ::send(sock, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  // Read what the client sent (briefly), so that closing does not reset the connection before
  // the client has read the answer.
  ::shutdown(sock, SHUT_WR);
  char buf[4096];
  const auto until = Clock::now() + std::chrono::milliseconds(200);
  while (Clock::now() < until && wait_for(sock, POLLIN, 50)) {
    if (::recv(sock, buf, sizeof buf, MSG_DONTWAIT) <= 0) break;
  }
}

}  // namespace

GuardedServer::GuardedServer(ConnectionLimits limits) : limits_(limits) {
  set_keep_alive_max_count(std::max<size_t>(1, limits_.keep_alive_requests));
  // The stream does its own waiting; these are cpp-httplib's, kept consistent for its clients.
  set_read_timeout(static_cast<time_t>(limits_.read_timeout));
  set_write_timeout(static_cast<time_t>(limits_.write_timeout));
  set_keep_alive_timeout(static_cast<time_t>(limits_.keep_alive_seconds));
}

int GuardedServer::connections_of(const std::string& address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = per_address_.find(address);
  return it == per_address_.end() ? 0 : it->second;
}

bool GuardedServer::admit(const std::string& address) {
  std::lock_guard<std::mutex> lock(mutex_);
  int& n = per_address_[address];
  if (limits_.max_per_address > 0 && n >= limits_.max_per_address) {
    if (n == 0) per_address_.erase(address);
    return false;
  }
  ++n;
  return true;
}

void GuardedServer::release(const std::string& address) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = per_address_.find(address);
  if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  std::string address;
  int port = 0;
  address_of(sock, true, address, port);
  bool ok = false;
  if (!admit(address)) {
    spdlog::warn("refused a connection from {}: {} connections of it open", address,
                 limits_.max_per_address);
    refuse(sock);
  } else {
    DeadlineStream stream(sock, limits_);
    for (size_t left = std::max<size_t>(1, limits_.keep_alive_requests); left > 0; --left) {
      // An idle connection: wait for its next request (in slices, to notice a stop).
      bool ready = stream.buffered();
      const auto idle_until =
          Clock::now() + std::chrono::milliseconds(millis(limits_.keep_alive_seconds));
      while (!ready && svr_sock_ != INVALID_SOCKET && Clock::now() < idle_until) {
        ready = wait_for(sock, POLLIN, 100);
      }
      if (!ready || svr_sock_ == INVALID_SOCKET) break;
      stream.start_request();
      bool closed = false;
      ok = process_request(stream, left == 1, closed, nullptr);
      stream.end_request();
      if (!ok || closed || stream.expired()) break;
    }
    release(address);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

}  // namespace pincer::serve
