// The analysis engine: golden responses, concurrency, terminate, bad queries.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "tests/serve/support.h"

namespace pincer::testing {
namespace {

using serve::Json;

std::string source_dir() {
  const char* root = std::getenv("PINCER_SOURCE_DIR");
  return root ? root : ".";
}

// Golden pairs: tests/serve/golden/<name>.jsonl holds a header line {"rules","player"}, then
// query lines {"query":..} each followed by the exact expected responses {"response":..}.
void check_golden(const std::string& name) {
  std::ifstream in(source_dir() + "/tests/serve/golden/" + name + ".jsonl");
  ASSERT_TRUE(in) << "missing golden file " << name;
  std::string line;
  std::getline(in, line);
  const Json header = Json::parse(line);
  auto engine = classical_engine(header["rules"], header["player"], 1);
  std::vector<Json> queries, expected;
  while (std::getline(in, line)) {
    const Json j = Json::parse(line);
    if (j.contains("query")) queries.push_back(j["query"]);
    if (j.contains("response")) expected.push_back(j["response"]);
  }
  ASSERT_FALSE(queries.empty());
  Collector got;
  for (const Json& q : queries) {
    engine->handle(q, got.sink());
    engine->wait_idle();
  }
  const auto lines = got.lines();
  ASSERT_EQ(lines.size(), expected.size());
  for (size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(lines[i].dump(), expected[i].dump());
}

TEST(AnalysisGolden, MctsRollouts) { check_golden("mcts-seize-v0"); }
TEST(AnalysisGolden, AlphaBeta) { check_golden("alphabeta-seize-reference"); }
TEST(AnalysisGolden, Seega) { check_golden("alphabeta-seega-5x5"); }

Json query(const std::string& id, std::vector<std::string> moves, int visits) {
  Json q{{"id", id}, {"moves", moves}, {"maxVisits", visits}};
  return q;
}

// Many queries at once on four workers give the same answers as one at a time on one worker.
TEST(AnalysisConcurrency, SameAnswersAsOneAtATime) {
  const std::vector<std::vector<std::string>> lines = {
      {}, {"c2"}, {"c2", "b6"}, {"c2", "b6", "c1"}, {"c2", "b6", "c1", "a6"}};
  std::vector<Json> queries;
  for (int rep = 0; rep < 3; ++rep) {
    for (size_t i = 0; i < lines.size(); ++i) {
      queries.push_back(query("q" + std::to_string(rep) + "-" + std::to_string(i), lines[i], 60));
    }
  }
  Collector serial, parallel;
  {
    auto engine = classical_engine("seize-v0", "mcts:sims=60,rollout=40", 1);
    for (const Json& q : queries) {
      engine->handle(q, serial.sink());
      engine->wait_idle();
    }
  }
  {
    auto engine = classical_engine("seize-v0", "mcts:sims=60,rollout=40", 4);
    std::vector<std::thread> clients;
    for (int c = 0; c < 3; ++c) {
      clients.emplace_back([&, c] {
        for (size_t i = c; i < queries.size(); i += 3) engine->handle(queries[i], parallel.sink());
      });
    }
    for (auto& t : clients) t.join();
    engine->wait_idle();
  }
  ASSERT_EQ(serial.lines().size(), queries.size());
  ASSERT_EQ(parallel.lines().size(), queries.size());
  for (const Json& q : queries) {
    const auto a = serial.for_id(q["id"]);
    const auto b = parallel.for_id(q["id"]);
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(a[0].dump(), b[0].dump());
    EXPECT_FALSE(a[0].contains("error")) << a[0].dump();
    EXPECT_EQ(a[0]["rootInfo"]["visits"], 61);  // 60 simulations and the root's own evaluation
  }
}

TEST(AnalysisTerminate, StopsARunningSearchAndDropsQueuedTurns) {
  auto engine = classical_engine("seize-v0", "mcts:sims=400,rollout=40", 1);
  Collector got;
  engine->handle(Json{{"id", "long"},
                      {"maxVisits", 10000000},
                      {"analyzeTurns", {0, 1, 2}},
                      {"moves", {"c2", "b6"}}},
                 got.sink());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto t0 = std::chrono::steady_clock::now();
  engine->handle_line(R"({"id":"t","action":"terminate","terminateId":"long"})", got.sink());
  engine->wait_idle();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  const auto ack = got.for_id("t");
  ASSERT_EQ(ack.size(), 1u);
  EXPECT_EQ(ack[0].dump(), R"({"id":"t","action":"terminate","terminateId":"long"})");
  const auto out = got.for_id("long");
  ASSERT_EQ(out.size(), 3u);
  int partial = 0, none = 0;
  for (const Json& j : out) {
    EXPECT_FALSE(j["isDuringSearch"]);
    if (j.contains("noResults")) {
      ++none;
    } else {
      ++partial;
      EXPECT_GT(j["rootInfo"]["visits"].get<int>(), 0);
      EXPECT_LT(j["rootInfo"]["visits"].get<int>(), 10000000);
    }
  }
  EXPECT_EQ(partial, 1);  // the turn that was running
  EXPECT_EQ(none, 2);     // the queued ones
}

TEST(AnalysisTerminate, ReportsDuringSearch) {
  auto engine = classical_engine("seize-v0", "mcts:sims=400,rollout=40", 1);
  Collector got;
  engine->handle(
      Json{
          {"id", "r"}, {"maxTime", 0.6}, {"maxVisits", 10000000}, {"reportDuringSearchEvery", 0.1}},
      got.sink());
  engine->wait_idle();
  const auto out = got.for_id("r");
  ASSERT_GE(out.size(), 3u);
  for (size_t i = 0; i + 1 < out.size(); ++i) EXPECT_TRUE(out[i]["isDuringSearch"]);
  EXPECT_FALSE(out.back()["isDuringSearch"]);
  EXPECT_GE(out.back()["rootInfo"]["visits"], out.front()["rootInfo"]["visits"]);
}

TEST(AnalysisErrors, BadQueriesAnswerAndTheEngineGoesOn) {
  auto engine = classical_engine("seize-v0", "alphabeta:depth=1", 1);
  Collector got;
  engine->handle_line("{not json", got.sink());
  engine->handle_line(R"({"id":"m","moves":["c2","zz9"]})", got.sink());
  engine->handle_line(R"({"id":"r","rules":"seega-5x5"})", got.sink());
  engine->handle_line(R"({"id":"t","moves":["c2"],"analyzeTurns":[2]})", got.sink());
  engine->handle_line(R"({"id":"p","position":"garbage"})", got.sink());
  engine->handle_line(R"({"id":"f","visits":3})", got.sink());
  engine->handle_line(R"({"id":"ok","moves":["c2"]})", got.sink());
  engine->wait_idle();
  const auto field = [&](const std::string& id) {
    const auto out = got.for_id(id);
    return out.size() == 1 && out[0].contains("field") ? out[0]["field"].get<std::string>() : "";
  };
  EXPECT_EQ(got.for_id(nullptr).size(), 1u);
  EXPECT_EQ(field("m"), "moves");
  EXPECT_EQ(got.for_id("m")[0]["index"], 1);
  EXPECT_EQ(field("r"), "rules");
  EXPECT_EQ(field("t"), "analyzeTurns");
  EXPECT_EQ(field("p"), "position");
  EXPECT_EQ(field("f"), "visits");
  const auto ok = got.for_id("ok");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_FALSE(ok[0].contains("error"));
  EXPECT_EQ(ok[0]["turnNumber"], 1);
  EXPECT_FALSE(ok[0]["moveInfos"].empty());
}

TEST(AnalysisErrors, QueueIsBounded) {
  std::vector<std::shared_ptr<serve::Analyzer>> analyzers;
  analyzers.push_back(serve::make_player_analyzer(load_game("seize-v0"), "mcts:sims=50", 1));
  serve::EngineOptions o;
  o.threads = 1;
  o.max_queued_turns = 3;
  serve::AnalysisEngine engine(std::move(analyzers), o);
  Collector got;
  engine.handle(
      Json{{"id", "big"}, {"moves", {"c2", "b6", "c1", "a6"}}, {"analyzeTurns", {0, 1, 2, 3, 4}}},
      got.sink());
  engine.wait_idle();
  const auto out = got.for_id("big");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0]["error"].get<std::string>().find("busy"), std::string::npos);
}

}  // namespace
}  // namespace pincer::testing
