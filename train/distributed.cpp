#include "train/distributed.h"

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include <cstdlib>
#include <cstring>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <vector>

namespace pincer {

namespace {

std::string seconds(std::chrono::milliseconds t) {
  return fmt::format("{:g} s", t.count() / 1000.0);
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

std::vector<uint8_t> to_bytes(const std::string& s) { return {s.begin(), s.end()}; }
std::string from_bytes(const std::vector<uint8_t>& v) { return {v.begin(), v.end()}; }

std::string first_line(std::string why) {
  if (const size_t nl = why.find('\n'); nl != std::string::npos) why.resize(nl);
  return why.substr(0, 300);
}

// Every rank joins once, with the same world size; names the ranks missing after the timeout.
void check_ranks(c10d::Store& store, const DistributedOptions& o) {
  const std::string me = std::to_string(o.rank);
  if (store.add("claim/" + me, 1) > 1) {
    throw DistributedError("two processes were started with --rank " + me + " for master " +
                           o.master);
  }
  store.set("world/" + me, to_bytes(std::to_string(o.world_size)));
  std::vector<std::string> keys;
  for (int r = 0; r < o.world_size; ++r) keys.push_back("world/" + std::to_string(r));
  try {
    store.wait(keys, o.timeout);
  } catch (const std::exception&) {
    std::string missing;
    for (int r = 0; r < o.world_size; ++r) {
      if (!store.check({keys[r]})) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
    }
    throw DistributedError("rank(s) " + missing + " did not join " + o.master + " within " +
                           seconds(o.timeout) + " (are they started, with --world-size " +
                           std::to_string(o.world_size) + " and this --master?)");
  }
  for (int r = 0; r < o.world_size; ++r) {
    const std::string theirs = from_bytes(store.get(keys[r]));
    if (theirs != std::to_string(o.world_size)) {
      throw DistributedError("rank " + std::to_string(r) + " was started with --world-size " +
                             theirs + ", rank " + me + " with " + std::to_string(o.world_size));
    }
  }
}

}  // namespace

std::pair<std::string, uint16_t> parse_master_address(const std::string& address) {
  auto bad = [&](const std::string& why) {
    return DistributedError("--master '" + address + "' is not HOST:PORT: " + why);
  };
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos) throw bad("no port");
  std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) throw bad("no host");
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
    throw bad("the port is not a number");
  const long p = std::stol(port);
  if (p < 1 || p > 65535) throw bad("the port is not in 1..65535");
  return {host, static_cast<uint16_t>(p)};
}

struct DataParallel::Impl {
  DistributedOptions options;
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;

  // Waits for a collective; every failure (a peer that closed its connection, a timeout) becomes
  // a DistributedError that says which operation and what to check.
  void wait(const c10::intrusive_ptr<c10d::Work>& work, const std::string& what) {
    try {
      work->wait();
    } catch (const std::exception& e) {
      throw DistributedError("data-parallel " + what + " failed on rank " +
                             std::to_string(options.rank) + " of " +
                             std::to_string(options.world_size) +
                             ": another rank died, stopped or did not answer within " +
                             seconds(options.timeout) + " (" + first_line(e.what()) + ")");
    }
  }
};

DataParallel::DataParallel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DataParallel::~DataParallel() = default;

int DataParallel::rank() const { return impl_->options.rank; }
int DataParallel::world_size() const { return impl_->options.world_size; }

std::unique_ptr<DataParallel> DataParallel::connect(const DistributedOptions& o) {
  if (o.world_size < 1) throw DistributedError("--world-size must be at least 1");
  if (o.rank < 0 || o.rank >= o.world_size) {
    throw DistributedError("--rank " + std::to_string(o.rank) + " is not in 0.." +
                           std::to_string(o.world_size - 1) + " (--world-size " +
                           std::to_string(o.world_size) + ")");
  }
  if (o.timeout.count() <= 0) throw DistributedError("the data-parallel timeout must be positive");
  const auto [host, port] = parse_master_address(o.master);
  auto impl = std::make_unique<Impl>();
  impl->options = o;

  c10d::TCPStoreOptions so;
  so.port = port;
  so.isServer = o.rank == 0;
  so.numWorkers = o.world_size;
  so.waitWorkers = false;  // the rank keys below wait, with a message that names who is missing
  so.timeout = o.timeout;
  c10::intrusive_ptr<c10d::Store> tcp;
  try {
    tcp = c10::make_intrusive<c10d::TCPStore>(host, so);
  } catch (const std::exception& e) {
    if (o.rank == 0) {
      throw DistributedError(
          "rank 0 could not serve the rendezvous at " + o.master +
          " (is the port in use, or the host not this machine?): " + first_line(e.what()));
    }
    throw DistributedError(
        "rank " + std::to_string(o.rank) + " could not reach the master " + o.master + " within " +
        seconds(o.timeout) +
        " (is rank 0 started, and the address and port right?): " + first_line(e.what()));
  }
  impl->store = c10::make_intrusive<c10d::PrefixStore>("pincer", tcp);

  // One process per rank, and every rank with the same world size.
  try {
    check_ranks(*impl->store, o);
  } catch (const DistributedError&) {
    throw;
  } catch (const std::exception& e) {
    throw DistributedError(
        "rank " + std::to_string(o.rank) + " lost the master " + o.master +
        " while waiting for the other ranks (rank 0 stopped?): " + first_line(e.what()));
  }

  auto go = c10d::ProcessGroupGloo::Options::create(o.timeout);
  try {
    if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname) {
      go->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
    } else if (is_loopback(host)) {
      go->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    } else {
      go->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    }
    go->threads = 2;
    impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(
        c10::make_intrusive<c10d::PrefixStore>("gloo", impl->store), o.rank, o.world_size, go);
  } catch (const std::exception& e) {
    throw DistributedError("rank " + std::to_string(o.rank) +
                           " could not connect the Gloo process group: " + first_line(e.what()));
  }
  spdlog::info("data-parallel rank {} of {} joined {}", o.rank, o.world_size, o.master);
  return std::unique_ptr<DataParallel>(new DataParallel(std::move(impl)));
}

void DataParallel::check_same(uint64_t value, const std::string& what) {
  Impl& m = *impl_;
  const int n = m.options.world_size;
  std::vector<at::Tensor> input{torch::tensor({static_cast<int64_t>(value)}, torch::kInt64)};
  std::vector<std::vector<at::Tensor>> output(1);
  for (int r = 0; r < n; ++r) output[0].push_back(torch::zeros({1}, torch::kInt64));
  m.wait(m.group->allgather(output, input), "check of the ranks' " + what);
  std::string differ;
  for (int r = 1; r < n; ++r) {
    if (output[0][r].item<int64_t>() != output[0][0].item<int64_t>()) {
      differ += (differ.empty() ? "" : ", ") + std::to_string(r);
    }
  }
  if (!differ.empty()) {
    throw DistributedError("rank(s) " + differ + " have another " + what +
                           " than rank 0: every rank must run the same binary with the same "
                           "config, run and options");
  }
}

std::string DataParallel::broadcast_bytes(const std::string& bytes) {
  Impl& m = *impl_;
  std::vector<at::Tensor> size{
      torch::tensor({static_cast<int64_t>(m.options.rank == 0 ? bytes.size() : 0)}, torch::kInt64)};
  m.wait(m.group->broadcast(size), "broadcast");
  const int64_t n = size[0].item<int64_t>();
  std::vector<at::Tensor> data{torch::empty({n}, torch::kUInt8)};
  if (m.options.rank == 0 && n > 0) std::memcpy(data[0].data_ptr<uint8_t>(), bytes.data(), n);
  if (n > 0) m.wait(m.group->broadcast(data), "broadcast");
  return std::string(reinterpret_cast<const char*>(data[0].data_ptr<uint8_t>()), n);
}

bool DataParallel::any(bool flag) {
  Impl& m = *impl_;
  std::vector<at::Tensor> t{torch::tensor({flag ? 1 : 0}, torch::kInt32)};
  c10d::AllreduceOptions ao;
  ao.reduceOp = c10d::ReduceOp::MAX;
  m.wait(m.group->allreduce(t, ao), "agreement to stop");
  return t[0].item<int32_t>() != 0;
}

void DataParallel::average(at::Tensor& flat) {
  Impl& m = *impl_;
  if (flat.scalar_type() != torch::kFloat32 || !flat.is_contiguous() || !flat.device().is_cpu()) {
    throw std::logic_error("DataParallel::average needs a contiguous float tensor on the CPU");
  }
  std::vector<at::Tensor> t{flat};
  m.wait(m.group->allreduce(t), "gradient all-reduce");
  flat.div_(m.options.world_size);
}

}  // namespace pincer
