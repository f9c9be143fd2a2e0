#include "engine/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace pincer {
namespace {

std::runtime_error io_error(const std::string& what, const std::string& path) {
  return std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

void atomic_write_file(const std::string& path, const std::string& bytes) {
  static std::atomic<uint64_t> counter{0};
  const std::string tmp =
      path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error("cannot create", tmp);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const auto e = io_error("cannot write", tmp);
      ::close(fd);
      ::unlink(tmp.c_str());
      throw e;
    }
    done += static_cast<size_t>(n);
  }
  // Close whether or not fsync succeeded: the descriptor must not leak on a failed flush.
  const bool synced = ::fsync(fd) == 0;
  const auto sync_error = synced ? std::runtime_error("") : io_error("cannot flush", tmp);
  const bool closed = ::close(fd) == 0;
  if (!synced || !closed) {
    const auto e = synced ? io_error("cannot close", tmp) : sync_error;
    ::unlink(tmp.c_str());
    throw e;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const auto e = io_error("cannot rename into", path);
    ::unlink(tmp.c_str());
    throw e;
  }
  // Make the rename itself durable.
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error("cannot open", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw io_error("cannot read", path);
  return ss.str();
}

void atomic_copy_file(const std::string& from, const std::string& to) {
  atomic_write_file(to, read_whole_file(from));
}

}  // namespace pincer
