// The store conformance suite (store/store.h): the same tests against dir:// and redis:// (a
// redis-server of the test's own on a free loopback port), then what is particular to each.
#include "store/store.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "engine/atomic_file.h"
#include "proto/record.pb.h"
#include "store/redis_client.h"
#include "store/store_dir.h"
#include "store/store_mirror.h"
#include "store/store_redis.h"
#include "tests/store/redis_server.h"

namespace fs = std::filesystem;

namespace pincer::testing {
namespace {

const std::string kFp = "fp-aaaa";
const std::string kOtherFp = "fp-bbbb";

fs::path scratch_dir(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / ("pincer_store_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

std::string chunk_bytes(const std::string& fp, int games) {
  RecordChunk c;
  c.set_game("toy");
  c.set_ruleset_name("toy-rules");
  c.set_fingerprint(fp);
  for (int i = 0; i < games; ++i) {
    GameRecord* g = c.add_games();
    g->set_fingerprint(fp);
    g->set_seed(i);
  }
  const std::string raw = c.SerializeAsString();
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), 1));
  return out;
}

ModelBlob model_blob(const std::string& fp, int step, size_t weight_bytes = 1000) {
  ModelBlob b;
  b.metadata = "# metadata\nmodel_id: \"toy/step-" + std::to_string(step) + "\"\nfingerprint: \"" +
               fp + "\"\ntraining_step: " + std::to_string(step) + "\n";
  b.weights.resize(weight_bytes);
  for (size_t i = 0; i < weight_bytes; ++i)
    b.weights[i] = static_cast<char>((i * 31 + step) & 0xff);
  return b;
}

std::string chunk_name(int i, const std::string& writer = "w") {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%013d-%s-%06d.chunk", 1700000000 + i, writer.c_str(), i);
  return buf;
}

RedisServer& shared_redis() {
  static RedisServer server((scratch_dir("redis") / "data").string());
  return server;
}

int run_counter = 0;

class StoreConformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "redis" && !RedisServer::available()) {
      GTEST_SKIP() << "redis-server is not installed (apt-get install redis-server): the "
                      "redis:// store is not tested";
    }
    url_ = make_url();
    store_ = open_store(url_);
    store_->bind(kFp);
  }
  std::string make_url() {
    const std::string run = "t" + std::to_string(::getpid()) + "-" + std::to_string(++run_counter);
    if (GetParam() == "dir") return "dir://" + (scratch_dir(run) / "run").string();
    return shared_redis().url(run);
  }
  std::string url_;
  std::unique_ptr<Store> store_;
};

TEST_P(StoreConformance, ConfigRoundTrip) {
  EXPECT_FALSE(store_->read_config());
  store_->write_config("rules: \"toy\"\nseed: 7\n");
  const auto c = store_->read_config();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->text, "rules: \"toy\"\nseed: 7\n");
}

TEST_P(StoreConformance, ChunksAppendListReadInOrder) {
  EXPECT_TRUE(store_->list_chunks("", 0).empty());
  for (int i = 0; i < 5; ++i) store_->append_chunk(chunk_name(i), chunk_bytes(kFp, i + 1));
  store_->append_chunk(chunk_name(2), chunk_bytes(kFp, 3));  // a retried append: no duplicate
  const auto all = store_->list_chunks("", 0);
  ASSERT_EQ(all.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(all[i].name, chunk_name(i));
    EXPECT_EQ(store_->read_chunk(all[i].name), chunk_bytes(kFp, i + 1));
  }
  // New ones since a cursor: every chunk appended after it is listed, in order.
  store_->append_chunk(chunk_name(5), chunk_bytes(kFp, 1));
  const auto after = store_->list_chunks(all[4].cursor, 0);
  ASSERT_FALSE(after.empty());
  EXPECT_EQ(after.back().name, chunk_name(5));
  if (GetParam() == "redis") {
    EXPECT_EQ(after.size(), 1u);  // exact; the dir store may list recent ones again
    EXPECT_EQ(store_->list_chunks("", 2).size(), 2u);
  }
  EXPECT_THROW(store_->read_chunk(chunk_name(99)), StoreError);
  EXPECT_THROW(store_->read_chunk("../../etc/passwd"), StoreError);
}

TEST_P(StoreConformance, ChunksOfAnotherRulesetAreRefused) {
  EXPECT_THROW(store_->append_chunk(chunk_name(1), chunk_bytes(kOtherFp, 1)), FingerprintError);
  EXPECT_THROW(store_->append_chunk(chunk_name(2), "not a chunk"), StoreError);
  EXPECT_TRUE(store_->list_chunks("", 0).empty());
}

TEST_P(StoreConformance, CursorsRoundTrip) {
  EXPECT_EQ(store_->read_cursor("trainer"), "");
  store_->write_cursor("trainer", "123-0");
  store_->write_cursor("other", "5-1");
  EXPECT_EQ(store_->read_cursor("trainer"), "123-0");
  EXPECT_EQ(store_->read_cursor("other"), "5-1");
}

TEST_P(StoreConformance, ModelsPublishFetchPromote) {
  EXPECT_FALSE(store_->best());
  EXPECT_TRUE(store_->list_models().empty());
  // 20 MB: more than one part in Redis.
  const ModelBlob big = model_blob(kFp, 0, 20u << 20);
  store_->publish_model("model-000000.pt", big);
  store_->publish_model("model-000100.pt", model_blob(kFp, 100));
  EXPECT_EQ(store_->list_models(),
            (std::vector<std::string>{"model-000000.pt", "model-000100.pt"}));
  const ModelBlob back = store_->fetch_model("model-000000.pt");
  EXPECT_EQ(back.weights, big.weights);
  EXPECT_EQ(back.metadata, big.metadata);
  store_->promote_best("model-000000.pt");
  auto b0 = store_->best();
  ASSERT_TRUE(b0);
  EXPECT_EQ(b0->name, "model-000000.pt");
  EXPECT_EQ(b0->model_id, "toy/step-0");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  store_->promote_best("model-000100.pt");
  auto b1 = store_->best();
  ASSERT_TRUE(b1);
  EXPECT_EQ(b1->name, "model-000100.pt");
  EXPECT_EQ(b1->model_id, "toy/step-100");
  EXPECT_NE(b1->version, b0->version);
  EXPECT_EQ(store_->fetch_best().weights, model_blob(kFp, 100).weights);
  // Republishing replaces it whole.
  store_->publish_model("model-000100.pt", model_blob(kFp, 101, 3000));
  EXPECT_EQ(store_->fetch_model("model-000100.pt").weights, model_blob(kFp, 101, 3000).weights);
  EXPECT_THROW(store_->promote_best("model-000200.pt"), StoreError);
  EXPECT_THROW(store_->fetch_model("model-000300.pt"), StoreError);
  EXPECT_THROW(store_->publish_model("model-000400.pt", model_blob(kOtherFp, 400)),
               FingerprintError);
  EXPECT_THROW(store_->publish_model("best.pt", model_blob(kFp, 1)), StoreError);
}

TEST_P(StoreConformance, CheckpointReplacedWhole) {
  EXPECT_FALSE(store_->read_checkpoint());
  store_->write_checkpoint(std::string(9u << 20, 'a'));
  store_->write_checkpoint("second");
  EXPECT_EQ(store_->read_checkpoint().value_or(""), "second");
}

TEST_P(StoreConformance, GateResultsOncePerCandidate) {
  GateResult a, b;
  a.set_candidate("model-000100.pt");
  a.set_score(0.6f);
  a.set_promoted(true);
  b.set_candidate("model-000200.pt");
  b.set_score(0.4f);
  store_->append_gate_result(a);
  store_->append_gate_result(b);
  store_->append_gate_result(a);
  const GateLog log = store_->read_gate_log();
  ASSERT_EQ(log.gates_size(), 2);
  EXPECT_EQ(log.gates(0).candidate(), "model-000100.pt");
  EXPECT_TRUE(log.gates(0).promoted());
  EXPECT_FLOAT_EQ(log.gates(1).score(), 0.4f);
}

TEST_P(StoreConformance, EventsInOrder) {
  store_->append_event("1,train,10");
  store_->append_event("2,gate,10");
  EXPECT_EQ(store_->read_events(), (std::vector<std::string>{"1,train,10", "2,gate,10"}));
  EXPECT_THROW(store_->append_event("a\nb"), StoreError);
}

TEST_P(StoreConformance, WorkersLatestHeartbeat) {
  store_->heartbeat({"sp-a", 1000, "3 games"});
  store_->heartbeat({"sp-b", 1500, "1 game"});
  store_->heartbeat({"sp-a", 2000, "9 games"});
  const auto w = store_->workers();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].name, "sp-a");
  EXPECT_EQ(w[0].last_seen_ms, 2000);
  EXPECT_EQ(w[0].status, "9 games");
  EXPECT_EQ(w[1].name, "sp-b");
}

TEST_P(StoreConformance, AnotherRulesetIsRefusedAtBind) {
  store_->publish_model("model-000000.pt", model_blob(kFp, 0));
  store_->promote_best("model-000000.pt");
  EXPECT_EQ(store_->run_fingerprint(), kFp);
  auto other = open_store(url_);
  EXPECT_THROW(other->bind(kOtherFp), FingerprintError);
  auto same = open_store(url_);
  EXPECT_NO_THROW(same->bind(kFp));
}

TEST_P(StoreConformance, CopyToTheOtherKindAndBack) {
  store_->write_config("seed: 3\n");
  for (int i = 0; i < 3; ++i) store_->append_chunk(chunk_name(i), chunk_bytes(kFp, 2));
  store_->publish_model("model-000000.pt", model_blob(kFp, 0));
  store_->publish_model("model-000050.pt", model_blob(kFp, 50));
  store_->promote_best("model-000050.pt");
  store_->write_checkpoint("ckpt");
  GateResult g;
  g.set_candidate("model-000050.pt");
  g.set_promoted(true);
  store_->append_gate_result(g);
  store_->append_event("1,train,50");
  if (!RedisServer::available()) GTEST_SKIP() << "redis-server is not installed";
  const std::string other_kind = GetParam() == "dir"
                                     ? shared_redis().url("copy" + std::to_string(++run_counter))
                                     : "dir://" + (scratch_dir("copy") / "run").string();
  auto other = open_store(other_kind);
  other->bind(kFp);
  EXPECT_EQ(copy_store(*store_, *other), 1 + 3 + 2 + 1 + 1 + 1 + 1);
  EXPECT_EQ(copy_store(*store_, *other), 1);  // again: only the checkpoint is rewritten
  auto back_url = make_url();
  auto back = open_store(back_url);
  back->bind(kFp);
  copy_store(*other, *back);
  for (Store* s : {other.get(), back.get()}) {
    EXPECT_EQ(s->read_config()->text, "seed: 3\n");
    ASSERT_EQ(s->list_chunks("", 0).size(), 3u);
    EXPECT_EQ(s->read_chunk(chunk_name(1)), chunk_bytes(kFp, 2));
    EXPECT_EQ(s->list_models(), store_->list_models());
    EXPECT_EQ(s->fetch_model("model-000050.pt").weights, model_blob(kFp, 50).weights);
    EXPECT_EQ(s->best()->model_id, "toy/step-50");
    EXPECT_EQ(s->read_checkpoint().value_or(""), "ckpt");
    EXPECT_EQ(s->read_gate_log().gates_size(), 1);
    EXPECT_EQ(s->read_events(), std::vector<std::string>{"1,train,50"});
  }
}

TEST_P(StoreConformance, MirrorMovesChunksAndAcknowledges) {
  const fs::path root = scratch_dir("mirror" + std::to_string(++run_counter));
  StoreMirror worker(*store_, RunDir((root / "worker").string()));
  StoreMirror trainer(*store_, RunDir((root / "trainer").string()));
  for (int i = 0; i < 3; ++i) {
    atomic_write_file(worker.local().records() + "/" + chunk_name(i), chunk_bytes(kFp, 1));
  }
  EXPECT_EQ(worker.push_chunks(true), 3);
  EXPECT_TRUE(fs::is_empty(worker.local().records()));
  EXPECT_EQ(trainer.pull_chunks(), 3);
  EXPECT_EQ(read_whole_file(trainer.local().records() + "/" + chunk_name(2)), chunk_bytes(kFp, 1));
  // Only the chunks the checkpoint holds are acknowledged, up to the first one it lacks.
  trainer.ack("trainer", {chunk_name(0), chunk_name(2)});
  const std::string acked = store_->read_cursor("trainer");
  EXPECT_EQ(acked, store_->list_chunks("", 0)[0].cursor);
  trainer.ack("trainer", {chunk_name(0), chunk_name(1), chunk_name(2)});
  EXPECT_EQ(store_->read_cursor("trainer"), store_->list_chunks("", 0)[2].cursor);
  // The checkpoint goes to the store, and to a trainer on a fresh local copy.
  atomic_write_file(trainer.local().checkpoint(), "state 1");
  trainer.push_checkpoint();
  EXPECT_EQ(store_->read_checkpoint().value_or(""), "state 1");
  atomic_write_file(trainer.local().checkpoint(), "state 2");
  trainer.push_checkpoint();
  EXPECT_EQ(store_->read_checkpoint().value_or(""), "state 2");
  StoreMirror fresh(*store_, RunDir((root / "fresh").string()));
  EXPECT_TRUE(fresh.pull_checkpoint());
  EXPECT_EQ(read_whole_file(fresh.local().checkpoint()), "state 2");
  if (GetParam() == "dir") return;  // (its cursor lists recent chunks again; no mirror needed)
  fresh.start_from_ack("trainer");
  EXPECT_EQ(fresh.pull_chunks(), 0);  // nothing after the acknowledged cursor
  EXPECT_EQ(fresh.fetch_chunks({chunk_name(0), chunk_name(2)}), 2);
}

TEST_P(StoreConformance, MirrorSetsAsideChunksOfAnotherRuleset) {
  const fs::path root = scratch_dir("aside" + std::to_string(++run_counter));
  StoreMirror worker(*store_, RunDir((root / "worker").string()));
  atomic_write_file(worker.local().records() + "/" + chunk_name(0), chunk_bytes(kOtherFp, 1));
  atomic_write_file(worker.local().records() + "/" + chunk_name(1), chunk_bytes(kFp, 1));
  EXPECT_EQ(worker.push_chunks(true), 1);
  EXPECT_TRUE(fs::exists(worker.local().records() + "/" + chunk_name(0) + ".refused"));
  ASSERT_EQ(store_->list_chunks("", 0).size(), 1u);
  EXPECT_EQ(store_->list_chunks("", 0)[0].name, chunk_name(1));
}

INSTANTIATE_TEST_SUITE_P(Stores, StoreConformance, ::testing::Values("dir", "redis"),
                         [](const auto& info) { return info.param; });

TEST(DirStore, KeepsTheRunDirLayoutAndRefusesForeignFiles) {
  const fs::path root = scratch_dir("layout") / "run";
  DirStore s(root.string());
  s.bind(kFp);
  s.append_chunk(chunk_name(1), chunk_bytes(kFp, 1));
  s.publish_model("model-000000.pt", model_blob(kFp, 0));
  s.promote_best("model-000000.pt");
  s.write_checkpoint("x");
  s.append_event("1,train");
  EXPECT_TRUE(fs::exists(root / "records" / chunk_name(1)));
  EXPECT_TRUE(fs::exists(root / "models/model-000000.pt"));
  EXPECT_TRUE(fs::exists(root / "models/model-000000.meta.textproto"));
  EXPECT_TRUE(fs::exists(root / "models/best.pt"));
  EXPECT_TRUE(fs::exists(root / "trainer.ckpt"));
  EXPECT_TRUE(fs::exists(root / "metrics.csv"));
  // A chunk file of another ruleset dropped into records/ is refused when read.
  atomic_write_file((root / "records" / chunk_name(2)).string(), chunk_bytes(kOtherFp, 1));
  EXPECT_THROW(s.read_chunk(chunk_name(2)), FingerprintError);
}

TEST(RedisStore, ParsesUrls) {
  const auto o = parse_redis_url("redis://example.org:7000/run-1?retry=2.5&timeout=1");
  EXPECT_EQ(o.redis.host, "example.org");
  EXPECT_EQ(o.redis.port, 7000);
  EXPECT_EQ(o.run, "run-1");
  EXPECT_DOUBLE_EQ(o.redis.retry_s, 2.5);
  EXPECT_DOUBLE_EQ(o.redis.timeout_s, 1);
  EXPECT_EQ(parse_redis_url("redis://h/r").redis.port, 6379);
  for (const char* bad :
       {"redis://h:0/r", "redis://h:1/", "redis://:1/r", "redis://h:99999/r",
        "redis://h:1/r?retry=x", "redis://h:1/r?bogus=1", "redis://h:1/a/b", "redis://h:1"}) {
    EXPECT_THROW(parse_redis_url(bad), StoreError) << bad;
  }
  EXPECT_THROW(open_store("ftp://x"), StoreError);
}

// A server that answers writes it may still lose when killed (found by scripts/soak.sh: with
// appendfsync everysec a killed Redis lost a record chunk its worker had been told was stored).
TEST(RedisStore, WarnsOfPersistenceThatCanLoseAnsweredWrites) {
  EXPECT_EQ(redis_durability_warning("yes", "always"), "");
  const std::string everysec = redis_durability_warning("yes", "everysec");
  EXPECT_NE(everysec.find("appendfsync is everysec"), std::string::npos) << everysec;
  EXPECT_NE(everysec.find("--appendfsync always"), std::string::npos) << everysec;
  EXPECT_NE(redis_durability_warning("yes", "no").find("appendfsync is no"), std::string::npos);
  const std::string no_aof = redis_durability_warning("no", "always");
  EXPECT_NE(no_aof.find("appendonly is no"), std::string::npos) << no_aof;
  EXPECT_NE(no_aof.find("--appendonly yes"), std::string::npos) << no_aof;
}

TEST(RedisStore, RefusesItemsOfAnotherRulesetWrittenBehindItsBack) {
  if (!RedisServer::available()) GTEST_SKIP() << "redis-server is not installed";
  const std::string run = "foreign" + std::to_string(::getpid());
  RedisStore s(parse_redis_url(shared_redis().url(run)));
  s.bind(kFp);
  s.append_chunk(chunk_name(1), chunk_bytes(kFp, 1));
  RedisClient raw({"127.0.0.1", shared_redis().port(), 5, 0});
  raw.command({"HSET", "pincer:" + run + ":chunk:" + chunk_name(1), "fp", kOtherFp});
  EXPECT_THROW(s.read_chunk(chunk_name(1)), FingerprintError);
}

TEST(RedisStore, UnreachableServerFailsAfterItsRetryTime) {
  if (!RedisServer::available()) GTEST_SKIP() << "redis-server is not installed";
  const fs::path root = scratch_dir("down");
  int port = 0;
  {
    RedisServer probe((root / "probe").string());
    port = probe.port();
  }  // stopped: nothing listens on `port` now
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(open_store("redis://127.0.0.1:" + std::to_string(port) + "/r?retry=1"),
               StoreUnavailable);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(s, 0.9);
  EXPECT_LT(s, 5);
}

TEST(RedisStore, RetriesWhileTheServerRestartsAndLosesNothingAcknowledged) {
  if (!RedisServer::available()) GTEST_SKIP() << "redis-server is not installed";
  const fs::path root = scratch_dir("restart");
  RedisServer server((root / "data").string());
  RedisStore s(parse_redis_url(server.url("r", "retry=20")));
  s.bind(kFp);
  for (int i = 0; i < 3; ++i) s.append_chunk(chunk_name(i), chunk_bytes(kFp, 1));
  s.publish_model("model-000000.pt", model_blob(kFp, 0, 100000));
  s.promote_best("model-000000.pt");
  // SIGTERM: appendonly's file is flushed; the server comes back 1.5 s later on the same port.
  server.stop();
  std::thread restart([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    server.start();
  });
  s.append_chunk(chunk_name(3), chunk_bytes(kFp, 1));  // retried until the server is back
  restart.join();
  const auto all = s.list_chunks("", 0);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[3].name, chunk_name(3));
  EXPECT_EQ(s.fetch_best().weights, model_blob(kFp, 0, 100000).weights);
}

}  // namespace
}  // namespace pincer::testing
