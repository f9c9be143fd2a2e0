#include "serve/engine.h"

#include <spdlog/spdlog.h>

#include <atomic>

#include "play/players.h"

namespace pincer::serve {

struct AnalysisEngine::QueryRun {
  Query query;
  Sink sink;
  std::shared_ptr<Analyzer> analyzer;
  std::map<int, std::shared_ptr<std::atomic<bool>>> stops;  // by turn
  std::atomic<bool> stop_all{false};
};

struct AnalysisEngine::Job {
  std::shared_ptr<QueryRun> run;
  int turn = 0;
  std::unique_ptr<State> state;
  std::shared_ptr<std::atomic<bool>> stop;
  int priority = 0;
  uint64_t seq = 0;
};

// First in the set: the highest priority, then the oldest.
bool AnalysisEngine::JobOrder::operator()(const std::shared_ptr<Job>& a,
                                          const std::shared_ptr<Job>& b) const {
  if (a->priority != b->priority) return a->priority > b->priority;
  return a->seq < b->seq;
}

// The answer of a turn stopped before it started.
Json AnalysisEngine::no_results(const Job& job) {
  Json out;
  out["id"] = job.run->query.id;
  out["turnNumber"] = job.turn;
  out["toMove"] = job.run->analyzer->game()->side_name(job.state->to_move());
  out["isDuringSearch"] = false;
  out["noResults"] = true;
  return out;
}

AnalysisEngine::AnalysisEngine(std::vector<std::shared_ptr<Analyzer>> analyzers,
                               EngineOptions options)
    : analyzers_(std::move(analyzers)), options_(options) {
  if (analyzers_.empty()) throw std::invalid_argument("analysis engine: no analyser");
  const int n = std::max(1, options_.threads);
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
}

AnalysisEngine::~AnalysisEngine() {
  terminate_all();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

std::string AnalysisEngine::version() { return "pincer 0.1.0"; }

std::shared_ptr<Analyzer> AnalysisEngine::analyzer_for(const std::string& rules) const {
  if (rules.empty()) {
    if (analyzers_.size() == 1) return analyzers_[0];
    throw QueryError("rules", "\"rules\" is required: this engine analyses several rulesets");
  }
  std::string loaded;
  for (const auto& a : analyzers_) {
    if (a->game()->ruleset_name() == rules || a->game()->fingerprint() == rules) return a;
    loaded += (loaded.empty() ? "" : ", ") + a->game()->ruleset_name();
  }
  throw QueryError("rules", "\"rules\" \"" + rules + "\" is not loaded here (loaded: " + loaded +
                                "; a model analyses only its own ruleset)");
}

void AnalysisEngine::handle_line(const std::string& line, const Sink& sink) {
  Json id;
  try {
    Request r = parse_request(line, id);
    if (!r.is_action) {
      submit(r.query, sink);
      return;
    }
    Json j = Json::parse(line);
    handle(j, sink);
  } catch (const QueryError& e) {
    sink(error_response(id, e.what(), e.field()));
  } catch (const std::exception& e) {
    sink(error_response(id, e.what(), ""));
  }
}

void AnalysisEngine::handle(const Json& request, const Sink& sink) {
  Json id;
  try {
    Request r = parse_request_json(request, id);
    if (!r.is_action) {
      submit(r.query, sink);
      return;
    }
    const ActionRequest& a = r.action;
    Json reply;
    reply["id"] = a.id;
    reply["action"] = a.action;
    if (a.action == "terminate") {
      terminate(a.terminate_id, a.turn_numbers);
      reply["terminateId"] = a.terminate_id;
      if (!a.turn_numbers.empty()) reply["turnNumbers"] = a.turn_numbers;
    } else if (a.action == "terminate_all") {
      terminate_all();
    } else if (a.action == "clear_cache") {
      clear_cache();
    } else if (a.action == "query_version") {
      reply["version"] = version();
      Json rulesets = Json::array();
      for (const auto& an : analyzers_) {
        rulesets.push_back(Json{{"rules", an->game()->ruleset_name()},
                                {"fingerprint", an->game()->fingerprint()},
                                {"analyzer", an->description()}});
      }
      reply["rulesets"] = rulesets;
    }
    sink(reply);
  } catch (const QueryError& e) {
    sink(error_response(id, e.what(), e.field()));
  } catch (const std::exception& e) {
    sink(error_response(id, e.what(), ""));
  }
}

bool AnalysisEngine::submit(const Query& q, const Sink& sink) {
  std::vector<std::shared_ptr<Job>> jobs;
  auto run = std::make_shared<QueryRun>();
  try {
    run->analyzer = analyzer_for(q.rules);
    const Game& game = *run->analyzer->game();
    std::unique_ptr<State> state;
    if (q.position.empty() || q.position == "startpos") {
      state = game.initial_state();
    } else {
      try {
        state = game.parse_state(q.position);
      } catch (const std::exception& e) {
        throw QueryError("position", std::string("\"position\": ") + e.what());
      }
    }
    std::vector<int> turns = q.analyze_turns;
    if (turns.empty()) turns.push_back(static_cast<int>(q.moves.size()));
    for (int t : turns) {
      if (t > static_cast<int>(q.moves.size())) {
        throw QueryError("analyzeTurns", "\"analyzeTurns\": turn " + std::to_string(t) +
                                             " is past the last move (" +
                                             std::to_string(q.moves.size()) + " moves)");
      }
    }
    std::map<int, std::unique_ptr<State>> at;
    std::vector<Action> legal;
    for (size_t i = 0;; ++i) {
      if (std::find(turns.begin(), turns.end(), static_cast<int>(i)) != turns.end()) {
        at[static_cast<int>(i)] = state->clone();
      }
      if (i == q.moves.size()) break;
      Action a = -1;
      try {
        if (state->outcome().over) throw GameError("the game is already over");
        a = game.parse_action(*state, q.moves[i]);
      } catch (const std::exception& e) {
        Json err = error_response(
            q.id, "\"moves\": move " + std::to_string(i) + " (\"" + q.moves[i] + "\"): " + e.what(),
            "moves");
        err["index"] = i;
        sink(err);
        return false;
      }
      state->apply(a);
    }
    run->query = q;
    run->sink = sink;
    for (auto& [turn, s] : at) {
      auto job = std::make_shared<Job>();
      job->run = run;
      job->turn = turn;
      job->state = std::move(s);
      job->stop = std::make_shared<std::atomic<bool>>(false);
      job->priority = q.priority;
      run->stops[turn] = job->stop;
      jobs.push_back(std::move(job));
    }
  } catch (const QueryError& e) {
    sink(error_response(q.id, e.what(), e.field()));
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.size() + jobs.size() > options_.max_queued_turns) {
      sink(error_response(q.id,
                          "busy: " + std::to_string(queue_.size()) + " turns are queued (at most " +
                              std::to_string(options_.max_queued_turns) + ")",
                          ""));
      return false;
    }
    live_.emplace(q.id.dump(), run);
    for (auto& job : jobs) {
      job->seq = next_seq_++;
      queue_.insert(std::move(job));
    }
  }
  wake_.notify_all();
  return true;
}

void AnalysisEngine::terminate(const Json& id, const std::vector<int>& turns) {
  std::vector<std::shared_ptr<Job>> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto range = live_.equal_range(id.dump());
    std::set<const QueryRun*> runs;
    for (auto it = range.first; it != range.second; ++it) {
      auto run = it->second.lock();
      if (!run) continue;
      runs.insert(run.get());
      for (auto& [turn, stop] : run->stops) {
        if (turns.empty() || std::find(turns.begin(), turns.end(), turn) != turns.end()) {
          stop->store(true);
        }
      }
    }
    // Queued turns of the query answer now rather than when a worker would take them.
    for (auto it = queue_.begin(); !runs.empty() && it != queue_.end();) {
      if (runs.count((*it)->run.get()) && (*it)->stop->load()) {
        dropped.push_back(*it);
        it = queue_.erase(it);
      } else {
        ++it;
      }
    }
    if (!dropped.empty() && queue_.empty() && running_ == 0) idle_.notify_all();
  }
  for (const auto& job : dropped) job->run->sink(no_results(*job));
}

void AnalysisEngine::terminate_all() {
  std::vector<std::shared_ptr<Job>> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [id, weak] : live_) {
      if (auto run = weak.lock()) {
        for (auto& [turn, stop] : run->stops) stop->store(true);
      }
    }
    dropped.assign(queue_.begin(), queue_.end());
    queue_.clear();
    if (running_ == 0) idle_.notify_all();
  }
  for (const auto& job : dropped) job->run->sink(no_results(*job));
}

void AnalysisEngine::clear_cache() {
  for (auto& a : analyzers_) a->clear_cache();
}

void AnalysisEngine::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
}

size_t AnalysisEngine::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

size_t AnalysisEngine::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

bool AnalysisEngine::urgent(const Job& job) { return job.priority >= kBotPriority; }

std::shared_ptr<AnalysisEngine::Job> AnalysisEngine::take_locked() {
  const int threads = static_cast<int>(workers_.size());
  // One worker is kept for bot moves (urgent turns) when asked and there is more than one.
  const size_t ordinary_slots =
      options_.reserve_for_bots && threads > 1 ? threads - 1 : static_cast<size_t>(threads);
  const int share = options_.client_share > 0
                        ? options_.client_share
                        : std::max<int>(1, static_cast<int>(ordinary_slots) / 2);
  // First a turn of a client under its share; failing that any turn (the engine never idles
  // while work waits, so a lone client may use every worker).
  for (int pass = 0; pass < 2; ++pass) {
    for (auto it = queue_.begin(); it != queue_.end(); ++it) {
      const Job& job = **it;
      if (!urgent(job)) {
        if (running_ordinary_ >= ordinary_slots) continue;
        const std::string& client = job.run->query.client;
        if (pass == 0 && !client.empty()) {
          auto r = running_of_.find(client);
          if (r != running_of_.end() && r->second >= share) continue;
        }
      }
      auto taken = *it;
      queue_.erase(it);
      return taken;
    }
  }
  return nullptr;
}

void AnalysisEngine::work() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return (stop_ && queue_.empty()) || (job = take_locked()); });
      if (!job) return;  // stop_ and nothing left
      ++running_;
      if (!urgent(*job)) ++running_ordinary_;
      if (!job->run->query.client.empty()) ++running_of_[job->run->query.client];
    }
    run_job(*job);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --running_;
      if (!urgent(*job)) --running_ordinary_;
      const std::string& client = job->run->query.client;
      if (!client.empty() && --running_of_[client] <= 0) running_of_.erase(client);
      // Forget finished queries.
      for (auto it = live_.begin(); it != live_.end();) {
        it = it->second.expired() ? live_.erase(it) : std::next(it);
      }
      if (queue_.empty() && running_ == 0) idle_.notify_all();
    }
    wake_.notify_all();  // a share or a slot came free
    job.reset();
  }
}

void AnalysisEngine::run_job(Job& job) {
  QueryRun& run = *job.run;
  const Query& q = run.query;
  const Game& game = *run.analyzer->game();
  const State& state = *job.state;
  Json head;
  head["id"] = q.id;
  head["turnNumber"] = job.turn;
  head["toMove"] = game.side_name(state.to_move());
  const auto emit = [&](Json body, bool during) {
    Json out = head;
    out["isDuringSearch"] = during;
    Json& root = body["rootInfo"];
    const std::array<int, 2> points = state.points();
    root["points"] = Json{{game.side_name(0), points[0]}, {game.side_name(1), points[1]}};
    for (auto it = body.begin(); it != body.end(); ++it) out[it.key()] = it.value();
    run.sink(out);
  };
  try {
    const Outcome o = state.outcome();
    if (o.over) {
      const double win = o.is_draw() ? 0 : (o.winner == state.to_move() ? 1 : 0);
      Json body;
      Json root{{"visits", 0}};
      root.update(wdl_json(win, o.is_draw() ? 1 : 0, o.is_draw() ? 0 : 1 - win));
      body["rootInfo"] = root;
      body["moveInfos"] = Json::array();
      body["result"] =
          Json{{"winner", o.winner < 0 ? std::string("draw") : game.side_name(o.winner)},
               {"reason", o.reason}};
      emit(std::move(body), false);
      return;
    }
    if (job.stop->load()) {
      Json out = head;
      out["isDuringSearch"] = false;
      out["noResults"] = true;
      run.sink(out);
      return;
    }
    TurnRequest req;
    req.max_visits = q.max_visits;
    req.max_time = q.max_time;
    req.include_policy = q.include_policy;
    req.include_pv = q.include_pv;
    req.report_every = q.report_every;
    req.early_stop = q.early_stop;
    req.seed = mix_seed(options_.seed, state.hash());
    req.stop = job.stop.get();
    req.report = [&](Json partial) { emit(std::move(partial), true); };
    emit(run.analyzer->analyze(state, req), false);
  } catch (const std::exception& e) {
    spdlog::warn("analysis of query {} turn {} failed: {}", q.id.dump(), job.turn, e.what());
    Json err = error_response(q.id, std::string("analysis failed: ") + e.what(), "");
    err["turnNumber"] = job.turn;
    run.sink(err);
  }
}

}  // namespace pincer::serve
