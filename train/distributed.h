// Data-parallel training across processes and machines on torch c10d: a TCPStore rendezvous at
// the master's HOST:PORT (rank 0 runs the store's server) and a ProcessGroupGloo over TCP for the
// collectives. The trainer (train/trainer.h) uses it to agree on the window, start every rank
// from rank 0's checkpoint and average the gradients of each step; docs/distributed.md says when
// it helps.
//
// Every failure is a DistributedError that says what to check: a master that cannot be reached
// within the timeout, ranks with another --world-size, two processes with the same --rank, ranks
// whose configs or models differ, a rank that died or stopped answering (the others fail after
// at most the timeout instead of hanging).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace at {
class Tensor;
}

namespace pincer {

class DistributedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DistributedOptions {
  int world_size = 1;
  int rank = 0;
  std::string master;  // HOST:PORT of rank 0's rendezvous store
  // How long to wait for the other ranks: to join, and in every collective.
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
};

// "HOST:PORT" (a [v6]:PORT address too) into its parts; DistributedError if it is not one.
std::pair<std::string, uint16_t> parse_master_address(const std::string& address);

class DataParallel {
 public:
  // Joins the group: checks the options, reaches the master (rank 0 serves it), checks that every
  // rank has the same world size and a rank of its own, and connects the Gloo process group.
  static std::unique_ptr<DataParallel> connect(const DistributedOptions& options);
  ~DataParallel();

  int rank() const;
  int world_size() const;

  // Every rank passes its value of `what`; throws (on every rank) naming the ranks whose value
  // differs from rank 0's.
  void check_same(uint64_t value, const std::string& what);
  // Rank 0's bytes, on every rank (the others pass anything).
  std::string broadcast_bytes(const std::string& bytes);
  // Whether any rank passed true.
  bool any(bool flag);
  // Replaces a contiguous float tensor by its element-wise mean over the ranks.
  void average(at::Tensor& flat);

 private:
  struct Impl;
  explicit DataParallel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pincer
