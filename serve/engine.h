// The analysis engine behind `pincer analyze` and `pincer serve`: queries in (serve/query.h),
// one response per analysed turn out, through a sink per query. A pool of worker threads takes
// turns from one priority queue (higher priority first, then arrival order; a client over its
// share of the workers waits while others' turns can run, and with reserve_for_bots one worker
// runs only bot moves), so many queries run at once; with a network all their searches share one
// batching Evaluator. Searches are seeded from the engine's seed and the position alone, so a
// query's answers do not depend on what else runs at the same time (with maxVisits; maxTime is
// wall-clock by nature).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "serve/analyzer.h"
#include "serve/query.h"

namespace pincer::serve {

// Receives the responses of one query (or the answer to an action). Called from worker threads;
// must be thread-safe and should not block for long.
using Sink = std::function<void(const Json&)>;

struct EngineOptions {
  int threads = 2;
  uint64_t seed = 1;
  // Turns waiting in the queue at most; a query that would pass it is refused ("busy").
  size_t max_queued_turns = 4096;
  // Keep one worker (of two or more) for urgent turns (priority >= kBotPriority: bot moves).
  bool reserve_for_bots = false;
  // Turns of one client (Query::client) running at once while other clients' turns wait;
  // 0: half the workers analyses may use (at least 1).
  int client_share = 0;
};

class AnalysisEngine {
 public:
  AnalysisEngine(std::vector<std::shared_ptr<Analyzer>> analyzers, EngineOptions options);
  ~AnalysisEngine();  // terminates everything and joins the workers
  AnalysisEngine(const AnalysisEngine&) = delete;
  AnalysisEngine& operator=(const AnalysisEngine&) = delete;

  // One protocol line (a query or an action); errors and answers go to `sink`.
  void handle_line(const std::string& line, const Sink& sink);
  void handle(const Json& request, const Sink& sink);
  // Queues a parsed query; returns false (after sending the error to `sink`) when it is bad.
  bool submit(const Query& query, const Sink& sink);
  // Stops the turns of query `id` (all turns when `turns` is empty); they answer at once with
  // what they have (noResults when they never started).
  void terminate(const Json& id, const std::vector<int>& turns = {});
  void terminate_all();
  void clear_cache();
  // Blocks until no turn is queued or running.
  void wait_idle();

  // The analyser for `rules` (ruleset name or fingerprint; "" = the only one); throws QueryError.
  std::shared_ptr<Analyzer> analyzer_for(const std::string& rules) const;
  const std::vector<std::shared_ptr<Analyzer>>& analyzers() const { return analyzers_; }
  size_t queued() const;
  size_t running() const;
  static std::string version();

 private:
  struct QueryRun;
  struct Job;
  struct JobOrder {
    bool operator()(const std::shared_ptr<Job>& a, const std::shared_ptr<Job>& b) const;
  };
  void work();
  void run_job(Job& job);
  // The next turn a worker may run (highest priority first, within the reservation and the
  // clients' shares), taken out of the queue; null when none may run now. Under mutex_.
  std::shared_ptr<Job> take_locked();
  static bool urgent(const Job& job);
  static Json no_results(const Job& job);

  std::vector<std::shared_ptr<Analyzer>> analyzers_;
  EngineOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::set<std::shared_ptr<Job>, JobOrder> queue_;
  // Queries with turns not yet answered, by id text, for terminate.
  std::multimap<std::string, std::weak_ptr<QueryRun>> live_;
  uint64_t next_seq_ = 0;
  size_t running_ = 0;
  size_t running_ordinary_ = 0;            // running turns that are not urgent
  std::map<std::string, int> running_of_;  // running turns by client
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace pincer::serve
