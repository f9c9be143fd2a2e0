// engine/atomic_file: a failed write leaves the target as it was, no temporary file and no open
// descriptor. fsync failures are injected by defining fsync in this test binary (it takes
// precedence over the C library's for the statically linked engine).
#include "engine/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <string>

namespace {
std::atomic<bool> fail_fsync{false};
}  // namespace

extern "C" int fsync(int fd) {
  if (fail_fsync.load()) {
    errno = EIO;
    return -1;
  }
  return static_cast<int>(::syscall(SYS_fsync, fd));
}

namespace pincer {
namespace {

namespace fs = std::filesystem;

size_t open_descriptors() {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator("/proc/self/fd")) {
    (void)e;
    ++n;
  }
  return n;
}

struct TempDir {
  std::string path =
      (fs::temp_directory_path() / ("pincer-atomic-" + std::to_string(::getpid()))).string();
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

TEST(AtomicFile, WritesAndReplaces) {
  TempDir dir;
  const std::string path = dir.path + "/f";
  atomic_write_file(path, "one");
  atomic_write_file(path, "two");
  EXPECT_EQ(read_whole_file(path), "two");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
}

TEST(AtomicFile, FailedFsyncLeaksNoDescriptorAndKeepsTheOldFile) {
  TempDir dir;
  const std::string path = dir.path + "/f";
  atomic_write_file(path, "old");
  const size_t before = open_descriptors();
  fail_fsync = true;
  for (int i = 0; i < 20; ++i) {
    try {
      atomic_write_file(path, "new");
      ADD_FAILURE() << "a failed fsync must throw";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot flush"), std::string::npos) << e.what();
    }
  }
  fail_fsync = false;
  EXPECT_EQ(open_descriptors(), before);
  EXPECT_EQ(read_whole_file(path), "old");
  // No temporary file left behind.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace pincer
