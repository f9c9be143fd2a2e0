#include "tests/store/redis_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>

namespace pincer::testing {
namespace {

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("no free port");
  }
  const int port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

bool answers(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  if (ok) {
    const char ping[] = "PING\r\n";
    char buf[16] = {};
    ok = ::write(fd, ping, sizeof ping - 1) == sizeof ping - 1 && ::read(fd, buf, 7) > 0 &&
         std::string(buf).find("PONG") != std::string::npos;
  }
  ::close(fd);
  return ok;
}

}  // namespace

bool RedisServer::available() {
  return std::system("command -v redis-server >/dev/null 2>&1") == 0;
}

RedisServer::RedisServer(const std::string& dir, int port) : dir_(dir), port_(port) {
  std::filesystem::create_directories(dir_);
  if (port_ == 0) port_ = free_port();
  start();
}

RedisServer::~RedisServer() { stop(); }

std::string RedisServer::url(const std::string& run, const std::string& options) const {
  return "redis://127.0.0.1:" + std::to_string(port_) + "/" + run +
         (options.empty() ? "" : "?" + options);
}

void RedisServer::start() {
  const std::string port = std::to_string(port_);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const std::string log = dir_ + "/redis.log";
    ::execlp("redis-server", "redis-server", "--port", port.c_str(), "--bind", "127.0.0.1", "--dir",
             dir_.c_str(), "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
             "--logfile", log.c_str(), "--daemonize", "no", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  pid_ = pid;
  for (int i = 0; i < 200; ++i) {
    if (answers(port_)) return;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("redis-server exited at start (see " + dir_ + "/redis.log)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  stop(true);
  throw std::runtime_error("redis-server did not answer on port " + port);
}

void RedisServer::stop(bool hard) {
  if (pid_ <= 0) return;
  ::kill(pid_, hard ? SIGKILL : SIGTERM);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

}  // namespace pincer::testing
