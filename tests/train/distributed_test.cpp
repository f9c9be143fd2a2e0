// train/distributed: data-parallel training over torch c10d Gloo on loopback. Two ranks (two
// threads, each with its own TCPStore client and ProcessGroupGloo, talking over TCP) train the
// weights one rank gets from the same shards; every rank resumes from rank 0's checkpoint; bad
// masters, mismatched ranks and a rank that dies give clear errors instead of hangs.
#include "train/distributed.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

#include "engine/registry.h"
#include "nn/network.h"
#include "store/records.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/run_setup.h"
#include "train/selfplay.h"
#include "train/trainer.h"

namespace pincer::testing {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

// A loopback port nobody listens on right now.
uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

DistributedOptions options(int world, int rank, uint16_t port, milliseconds timeout) {
  DistributedOptions o;
  o.world_size = world;
  o.rank = rank;
  o.master = "127.0.0.1:" + std::to_string(port);
  o.timeout = timeout;
  return o;
}

// Runs body(rank) for each rank on its own thread; returns each rank's error ("" if none).
std::vector<std::string> on_ranks(int world, const std::function<void(int)>& body) {
  std::vector<std::string> errors(world);
  std::vector<std::thread> threads;
  for (int r = 0; r < world; ++r) {
    threads.emplace_back([&, r] {
      try {
        body(r);
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  return errors;
}

std::vector<torch::Tensor> parameters(const std::string& model_path, const Game& game) {
  auto m = Model::load(model_path, game);
  std::vector<torch::Tensor> out;
  for (const auto& p : m->impl().net->parameters()) out.push_back(p.detach().clone());
  return out;
}

double max_difference(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    d = std::max(d, (a[i] - b[i]).abs().max().item<double>());
  }
  return d;
}

class DataParallelTraining : public ::testing::Test {
 protected:
  void SetUp() override {
    cfg_ = tictactoe_config(tictactoe_rules(scratch_.path()));
    cfg_.mutable_trainer()->set_min_positions(50);
    cfg_.mutable_trainer()->set_batch_size(16);
    // SGD with momentum: the optimiser's state must be the same on every rank and after a resume.
    cfg_.mutable_trainer()->mutable_optimizer()->set_kind("sgd");
    cfg_.mutable_trainer()->mutable_optimizer()->set_learning_rate(0.05f);
    cfg_.mutable_trainer()->mutable_optimizer()->set_momentum(0.9f);
    game_ = prepare_run_dir(rank_dir(0), cfg_);
    {
      SelfPlay sp(game_, cfg_, rank_dir(0), "t");
      std::atomic<bool> stop{false};
      sp.run(stop, 16);
    }
    // Rank 1's run dir starts empty: rank 0 sends the checkpoint and the chunks it trains on.
    fs::create_directories(rank_dir(1).models());
  }
  RunDir rank_dir(int r) const { return RunDir(scratch_ / ("rank" + std::to_string(r))); }

  ScratchDir scratch_{"ddp"};
  uint16_t free_port_ = free_port();
  RunConfig cfg_;
  GamePtr game_;
};

// The reference is one process that accumulates, for each step, the gradients of the same two
// shards the two ranks draw (shard k: its own seed and the window positions k, k + 2, ...), each
// loss divided by 2, before one optimiser step: the gradient of the mean of the two shards'
// losses, which is exactly what averaging the ranks' gradients computes. It is not one batch of
// twice the size: batch norm normalises each shard with its own statistics on its rank (and in
// the reference, where each shard has its own forward pass), and a combined batch's statistics
// would give other gradients.
TEST_F(DataParallelTraining, TwoRanksTrainTheWeightsOfOneRankAccumulatingTheSameShards) {
  const auto initial = parameters(rank_dir(0).model(0), *game_);
  // A copy of the run for a group that never stops (the exact-resume check below).
  fs::copy(scratch_ / "rank0", scratch_ / "uninterrupted", fs::copy_options::recursive);
  std::vector<torch::Tensor> reference;
  {
    Trainer t(game_, cfg_, rank_dir(0), nullptr, 2);
    t.ingest_new_records();
    ASSERT_TRUE(t.ready());
    for (int i = 0; i < 5; ++i) t.train_step();
    const std::string path = t.write_model();
    reference = parameters(path, *game_);
    fs::remove(path);
    fs::remove(Model::metadata_path(path));
  }
  ASSERT_FALSE(fs::exists(rank_dir(0).checkpoint()));

  // Two ranks: 3 steps and a checkpoint by rank 0, a step lost with the processes, then a fresh
  // group that resumes from rank 0's checkpoint (rank 1 has none of its own) for 2 more.
  uint64_t hashes[2] = {0, 0};
  std::string paths[2];
  auto errors = on_ranks(2, [&](int r) {
    auto group = DataParallel::connect(options(2, r, free_port_, milliseconds(30000)));
    GamePtr game = r == 0 ? game_ : load_game(cfg_.rules());
    Trainer t(game, cfg_, rank_dir(r), group.get());
    EXPECT_GT(t.ingest_new_records(), 0);
    ASSERT_TRUE(t.ready());
    for (int i = 0; i < 3; ++i) t.train_step();
    if (r == 0) t.save_checkpoint();
    t.train_step();
  });
  ASSERT_EQ(errors, std::vector<std::string>(2)) << errors[0] << "\n" << errors[1];
  const uint16_t second_port = free_port();
  errors = on_ranks(2, [&](int r) {
    auto group = DataParallel::connect(options(2, r, second_port, milliseconds(30000)));
    GamePtr game = r == 0 ? game_ : load_game(cfg_.rules());
    Trainer t(game, cfg_, rank_dir(r), group.get());
    EXPECT_EQ(t.step(), 3);
    EXPECT_EQ(t.ingest_new_records(), 0);
    for (int i = 0; i < 2; ++i) t.train_step();
    hashes[r] = t.state_hash();
    paths[r] = t.write_model();
  });
  ASSERT_EQ(errors, std::vector<std::string>(2)) << errors[0] << "\n" << errors[1];
  ASSERT_FALSE(fs::exists(rank_dir(1).checkpoint()));
  EXPECT_EQ(list_record_chunks(rank_dir(1).records()), list_record_chunks(rank_dir(0).records()));
  // The ranks hold the same weights and batch-norm statistics, bit for bit.
  EXPECT_EQ(hashes[0], hashes[1]);
  const auto trained = parameters(paths[0], *game_);
  EXPECT_EQ(max_difference(trained, parameters(paths[1], *game_)), 0.0);
  // Within float tolerance of the reference (sums in another order), and training moved them.
  EXPECT_LT(max_difference(trained, reference), 1e-4);
  EXPECT_GT(max_difference(trained, initial), 1e-2);

  // Exact resume: a group that trains the 5 steps without stopping ends bit for bit the same.
  uint64_t uninterrupted = 0;
  const uint16_t third_port = free_port();
  errors = on_ranks(2, [&](int r) {
    auto group = DataParallel::connect(options(2, r, third_port, milliseconds(30000)));
    const RunDir dir(scratch_ / (r == 0 ? "uninterrupted" : "uninterrupted-rank1"));
    Trainer t(r == 0 ? game_ : load_game(cfg_.rules()), cfg_, dir, group.get());
    t.ingest_new_records();
    for (int i = 0; i < 5; ++i) t.train_step();
    if (r == 0) uninterrupted = t.state_hash();
  });
  ASSERT_EQ(errors, std::vector<std::string>(2)) << errors[0] << "\n" << errors[1];
  EXPECT_EQ(uninterrupted, hashes[0]);
}

TEST_F(DataParallelTraining, RanksWithAnotherConfigAreRefused) {
  RunConfig other = cfg_;
  other.mutable_trainer()->set_batch_size(32);
  const auto errors = on_ranks(2, [&](int r) {
    auto group = DataParallel::connect(options(2, r, free_port_, milliseconds(20000)));
    Trainer t(r == 0 ? game_ : load_game(cfg_.rules()), r == 0 ? cfg_ : other, rank_dir(r),
              group.get());
  });
  for (const auto& e : errors) {
    EXPECT_NE(e.find("rank(s) 1 have another trainer config"), std::string::npos) << e;
  }
}

TEST(DataParallel, AnUnreachableMasterTimesOutWithAClearError) {
  const auto start = std::chrono::steady_clock::now();
  try {
    DataParallel::connect(options(2, 1, free_port(), milliseconds(2000)));
    FAIL() << "connected to nobody";
  } catch (const DistributedError& e) {
    EXPECT_NE(std::string(e.what()).find("could not reach the master 127.0.0.1:"),
              std::string::npos)
        << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(DataParallel, APortInUseIsAClearErrorOnRank0) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  try {
    DataParallel::connect(options(2, 0, ntohs(addr.sin_port), milliseconds(1000)));
    ADD_FAILURE() << "rank 0 served on a port in use";
  } catch (const DistributedError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0 could not serve the rendezvous"),
              std::string::npos)
        << e.what();
  }
  ::close(fd);
}

TEST(DataParallel, BadOptionsAreRefusedBeforeConnecting) {
  auto refusal = [](DistributedOptions o) -> std::string {
    try {
      DataParallel::connect(o);
    } catch (const DistributedError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refusal(options(2, 2, 1, milliseconds(100))).find("--rank 2 is not in 0..1"),
            std::string::npos);
  EXPECT_NE(refusal(options(0, 0, 1, milliseconds(100))).find("--world-size"), std::string::npos);
  auto o = options(2, 1, 1, milliseconds(100));
  for (const std::string bad :
       {"localhost", "localhost:", ":29500", "host:0", "host:70000", "host:12x"}) {
    o.master = bad;
    EXPECT_NE(refusal(o).find("is not HOST:PORT"), std::string::npos) << bad;
  }
  EXPECT_EQ(parse_master_address("[::1]:29500"),
            std::make_pair(std::string("::1"), uint16_t(29500)));
  EXPECT_EQ(parse_master_address("node-3.cluster:29500"),
            std::make_pair(std::string("node-3.cluster"), uint16_t(29500)));
}

TEST(DataParallel, RanksWithAnotherWorldSizeAreRefused) {
  const uint16_t port = free_port();
  const auto errors = on_ranks(2, [&](int r) {
    auto o = options(r == 0 ? 2 : 3, r, port, milliseconds(3000));
    DataParallel::connect(o);
  });
  EXPECT_NE(errors[0].find("rank 1 was started with --world-size 3, rank 0 with 2"),
            std::string::npos)
      << errors[0];
  // Rank 1 waits for a rank 2 that never comes and says so, or loses rank 0's store first.
  EXPECT_TRUE(errors[1].find("rank(s) 2 did not join") != std::string::npos ||
              errors[1].find("rank 1 lost the master") != std::string::npos)
      << errors[1];
}

TEST(DataParallel, CollectivesWorkAndADeadRankIsAnErrorNotAHang) {
  const uint16_t port = free_port();
  std::atomic<bool> rank1_gone{false};
  const auto start = std::chrono::steady_clock::now();
  const auto errors = on_ranks(2, [&](int r) {
    auto group = DataParallel::connect(options(2, r, port, milliseconds(2000)));
    EXPECT_EQ(group->rank(), r);
    EXPECT_EQ(group->world_size(), 2);
    auto t = torch::full({3}, float(r + 1));
    group->average(t);
    EXPECT_FLOAT_EQ(t[2].item<float>(), 1.5f);
    EXPECT_TRUE(group->any(r == 1));
    EXPECT_FALSE(group->any(false));
    EXPECT_EQ(group->broadcast_bytes(r == 0 ? std::string("rank 0\0says", 11) : "x"),
              std::string("rank 0\0says", 11));
    group->check_same(42, "answer");
    if (r == 1) {
      group.reset();  // rank 1 dies
      rank1_gone = true;
      return;
    }
    while (!rank1_gone) std::this_thread::sleep_for(milliseconds(10));
    group->any(false);
  });
  EXPECT_EQ(errors[1], "");
  EXPECT_NE(errors[0].find("another rank died, stopped or did not answer"), std::string::npos)
      << errors[0];
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(DataParallel, RanksThatDisagreeAreNamed) {
  const uint16_t port = free_port();
  const auto errors = on_ranks(3, [&](int r) {
    auto group = DataParallel::connect(options(3, r, port, milliseconds(10000)));
    group->check_same(r == 2 ? 7 : 5, "model");
  });
  for (const auto& e : errors) {
    EXPECT_NE(e.find("rank(s) 2 have another model than rank 0"), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace pincer::testing
