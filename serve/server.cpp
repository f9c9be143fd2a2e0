#include "serve/server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <condition_variable>
#include <deque>
#include <random>
#include <set>

#include "engine/record.h"
#include "engine/registry.h"
#include "play/levels.h"
#include "serve/board.h"
#include "serve/review_route.h"
#include "serve/web.h"

namespace pincer::serve {
namespace {

const char* kJson = "application/json";

void reply(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(body.dump(-1, ' ', false, Json::error_handler_t::replace), kJson);
}

void fail(httplib::Response& res, int status, const std::string& message,
          const std::string& field = "") {
  Json e{{"error", message}};
  if (!field.empty()) e["field"] = field;
  reply(res, status, e);
}

// The request body as a JSON object; throws QueryError.
Json body_json(const httplib::Request& req) {
  if (req.body.empty()) return Json::object();
  Json j = Json::parse(req.body, nullptr, false);
  if (j.is_discarded()) throw QueryError("", "the request body is not valid JSON");
  if (!j.is_object()) throw QueryError("", "the request body must be a JSON object");
  return j;
}

std::string random_id() {
  static std::mutex mu;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(mu);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng()));
  return buf;
}

const char* mime_of(const std::string& stem) {
  if (stem == "index") return "text/html; charset=utf-8";
  if (stem == "style") return "text/css; charset=utf-8";
  return "text/javascript; charset=utf-8";
}

// Collects the responses of one query for a waiting HTTP handler.
struct Waiter {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Json> pending;
  int finals = 0;
  bool failed = false;
};

// The sink keeps the waiter alive: a query may answer after its HTTP request has gone.
Sink sink_to(const std::shared_ptr<Waiter>& waiter) {
  return [waiter](const Json& j) {
    std::lock_guard<std::mutex> lock(waiter->mu);
    if (j.contains("error")) waiter->failed = true;
    if (!j.value("isDuringSearch", false)) ++waiter->finals;
    waiter->pending.push_back(j);
    waiter->cv.notify_all();
  };
}

}  // namespace

Server::Server(std::shared_ptr<AnalysisEngine> engine, ServerOptions options)
    : engine_(std::move(engine)), options_(std::move(options)), http_(new httplib::Server) {
  const int threads = options_.http_threads;
  http_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_->set_payload_max_length(1 << 20);
  http_->set_read_timeout(10);
  http_->set_write_timeout(10);
  http_->set_keep_alive_max_count(100);
  routes();
}

Server::~Server() { stop(); }

int Server::bind() {
  // Debian's compiled cpp-httplib listens with a backlog of 5: a burst of new connections then
  // overflows the accept queue, and the kernel drops their handshakes (retried after 1 s, 3 s,
  // ...; a connection whose handshake the server gives up on is reset). Listening again on the
  // bound socket raises the backlog (Linux), so the queue holds what the handler threads have
  // not taken yet.
  int listen_fd = -1;
  http_->set_socket_options([&listen_fd](socket_t sock) {
    httplib::default_socket_options(sock);
    listen_fd = sock;
  });
  int port = options_.port;
  if (port == 0) {
    port = http_->bind_to_any_port(options_.bind);
  } else if (!http_->bind_to_port(options_.bind, port)) {
    port = -1;
  }
  http_->set_socket_options(httplib::default_socket_options);
  if (port <= 0) {
    throw std::runtime_error("cannot listen on " + options_.bind + ":" +
                             std::to_string(options_.port));
  }
  if (listen_fd < 0 || ::listen(listen_fd, options_.listen_backlog) != 0) {
    throw std::runtime_error("cannot listen on " + options_.bind + ":" + std::to_string(port) +
                             " with a backlog of " + std::to_string(options_.listen_backlog));
  }
  return port;
}

void Server::run() { http_->listen_after_bind(); }

void Server::stop() {
  if (http_) http_->stop();
}

Json Server::info() const {
  Json rulesets = Json::array();
  for (const auto& a : engine_->analyzers()) {
    const Game& g = *a->game();
    bool points = false;
    for (const PieceKind& k : g.board_layout().kinds) points |= k.points > 0;
    rulesets.push_back({{"rules", g.ruleset_name()},
                        {"game", g.game_name()},
                        {"fingerprint", g.fingerprint()},
                        {"sides", {g.side_name(0), g.side_name(1)}},
                        {"analyzer", a->description()},
                        {"start", g.initial_state()->to_text()},
                        {"countsPoints", points},
                        {"layout", layout_json(g)}});
  }
  return {{"version", AnalysisEngine::version()},
          {"rulesets", rulesets},
          {"levels", {kMinLevel, kMaxLevel}}};
}

std::shared_ptr<GameSession> Server::find(const std::string& id) {
  std::lock_guard<std::mutex> lock(games_mutex_);
  auto it = games_.find(id);
  return it == games_.end() ? nullptr : it->second;
}

std::shared_ptr<GameSession> Server::create(const Json& body) {
  for (auto it = body.begin(); it != body.end(); ++it) {
    static const std::set<std::string> known = {"rules",   "human",    "level", "clock",
                                                "minutes", "position", "moves"};
    if (!known.count(it.key())) throw QueryError(it.key(), "\"" + it.key() + "\" is not a field");
  }
  const std::string rules =
      body.contains("rules") && body["rules"].is_string() ? body["rules"].get<std::string>() : "";
  std::shared_ptr<Analyzer> analyzer = engine_->analyzer_for(rules);
  const Game& game = *analyzer->game();
  SessionSettings s;
  if (body.contains("human")) {
    if (!body["human"].is_string()) throw QueryError("human", "\"human\" must be a side name");
    const std::string h = body["human"];
    if (h == "both") {
      s.bot_plays = {false, false};
    } else if (h == "none") {
      s.bot_plays = {true, true};
    } else {
      const int side = game.parse_side(h);
      if (side < 0) {
        throw QueryError("human", "\"human\" must be " + game.side_name(0) + ", " +
                                      game.side_name(1) + ", both or none");
      }
      s.bot_plays = {side != 0, side != 1};
    }
  }
  if (body.contains("level")) {
    const Json& l = body["level"];
    if (!l.is_number_integer() || l.get<int>() < kMinLevel || l.get<int>() > kMaxLevel) {
      throw QueryError("level", "\"level\" must be an integer in 1..10");
    }
    s.level = l.get<int>();
  }
  if (body.contains("clock")) {
    const Json& c = body["clock"];
    const std::string mode = c.is_string() ? c.get<std::string>() : "?";
    if (mode == "none")
      s.clock = ClockMode::kNone;
    else if (mode == "game")
      s.clock = ClockMode::kGame;
    else if (mode == "side")
      s.clock = ClockMode::kSide;
    else
      throw QueryError("clock", "\"clock\" must be none, game or side");
  }
  if (s.clock != ClockMode::kNone) {
    if (!body.contains("minutes") || !body["minutes"].is_number() ||
        !(body["minutes"].get<double>() > 0) || body["minutes"].get<double>() > 600) {
      throw QueryError("minutes", "\"minutes\" (0 < minutes <= 600) is required with a clock");
    }
    s.clock_seconds = body["minutes"].get<double>() * 60;
  }
  // A random-start game (rolled back rows) draws a start of its own for every new game.
  std::unique_ptr<State> start = game.initial_state();
  if (game.random_start()) start = game.start_state(std::stoull(random_id(), nullptr, 16));
  if (body.contains("position")) {
    if (!body["position"].is_string()) throw QueryError("position", "\"position\" must be text");
    try {
      start = game.parse_start(body["position"].get<std::string>());
    } catch (const GameError& e) {
      throw QueryError("position", e.what());
    }
  }
  auto session = std::make_shared<GameSession>(random_id(), analyzer, std::move(start), s);
  if (body.contains("moves")) {
    if (!body["moves"].is_array()) throw QueryError("moves", "\"moves\" must be a list");
    for (const Json& m : body["moves"]) {
      if (!m.is_string()) throw QueryError("moves", "\"moves\" must be a list of move texts");
      try {
        session->play(m.get<std::string>());
      } catch (const QueryError& e) {
        throw QueryError("moves", e.what());
      }
    }
  }
  std::lock_guard<std::mutex> lock(games_mutex_);
  while (games_.size() >= options_.max_games) {
    auto oldest = games_.begin();
    for (auto it = games_.begin(); it != games_.end(); ++it) {
      if (it->second->last_used() < oldest->second->last_used()) oldest = it;
    }
    games_.erase(oldest);
  }
  games_[session->id()] = session;
  return session;
}

Query Server::limited_query(const Json& body) {
  Json id;
  Json j = body;
  if (!j.contains("id")) j["id"] = "api-" + std::to_string(next_query_++);
  Request r = parse_request_json(j, id);
  if (r.is_action) throw QueryError("action", "actions are not served over HTTP");
  Query q = r.query;
  // Unique per request, so that terminate never reaches another client's query.
  q.id = "http-" + std::to_string(next_query_++) + "-" +
         (id.is_string() ? id.get<std::string>() : id.dump());
  if (q.max_time <= 0 || q.max_time > options_.max_query_seconds) {
    q.max_time = options_.max_query_seconds;
  }
  const size_t turns = q.analyze_turns.empty() ? 1 : q.analyze_turns.size();
  if (turns > static_cast<size_t>(options_.max_query_turns)) {
    throw QueryError("analyzeTurns",
                     "at most " + std::to_string(options_.max_query_turns) + " turns per request");
  }
  return q;
}

void Server::routes() {
  httplib::Server& s = *http_;
  for (const EmbeddedFile& f : embedded_web()) {
    const std::string stem = f.name, text = f.text;
    const std::string path =
        stem == "index" ? "/" : "/" + stem + (stem == "style" ? ".css" : ".js");
    s.Get(path, [stem, text](const httplib::Request&, httplib::Response& res) {
      res.set_header("Cache-Control", "no-cache");
      res.set_content(text, mime_of(stem));
    });
  }
  s.Get("/favicon.ico", [](const httplib::Request&, httplib::Response& res) { res.status = 204; });
  s.Get("/api/info",
        [this](const httplib::Request&, httplib::Response& res) { reply(res, 200, info()); });
  s.Post("/api/game", [this](const httplib::Request& req, httplib::Response& res) {
    auto session = create(body_json(req));
    reply(res, 201, session->describe());
  });
  s.Get(R"(/api/game/([0-9a-f]{1,32}))",
        [this](const httplib::Request& req, httplib::Response& res) {
          auto session = find(req.matches[1]);
          if (!session) return fail(res, 404, "no game " + std::string(req.matches[1]));
          reply(res, 200, session->describe());
        });
  s.Post(R"(/api/game/([0-9a-f]{1,32})/move)",
         [this](const httplib::Request& req, httplib::Response& res) {
           auto session = find(req.matches[1]);
           if (!session) return fail(res, 404, "no game " + std::string(req.matches[1]));
           const Json body = body_json(req);
           if (!body.contains("move") || !body["move"].is_string()) {
             throw QueryError("move", "\"move\" (the move's text) is required");
           }
           session->play(body["move"].get<std::string>());
           reply(res, 200, session->describe());
         });
  s.Post(R"(/api/game/([0-9a-f]{1,32})/bot)",
         [this](const httplib::Request& req, httplib::Response& res) {
           auto session = find(req.matches[1]);
           if (!session) return fail(res, 404, "no game " + std::string(req.matches[1]));
           auto turn = session->turn();
           if (!turn) return fail(res, 409, "the game is over");
           if (!turn->bot_to_move) return fail(res, 409, "it is not the bot's turn");
           const BotMove m =
               choose_bot_move(*engine_, *session, *turn, options_.bot, options_.seed + turn->ply);
           if (!session->play_at(turn->ply, m.action)) {
             return fail(res, 409, "the game moved on while the bot was thinking");
           }
           Json out{{"move", m.text}, {"how", m.how}, {"seconds", m.seconds}};
           if (!m.analysis.is_null()) out["analysis"] = m.analysis;
           out["game"] = session->describe();
           reply(res, 200, out);
         });
  s.Post(R"(/api/game/([0-9a-f]{1,32})/resign)",
         [this](const httplib::Request& req, httplib::Response& res) {
           auto session = find(req.matches[1]);
           if (!session) return fail(res, 404, "no game " + std::string(req.matches[1]));
           const Json body = body_json(req);
           int side = -1;
           if (body.contains("side")) {
             side = body["side"].is_string()
                        ? session->analyzer()->game()->parse_side(body["side"].get<std::string>())
                        : -1;
             if (side < 0) throw QueryError("side", "\"side\" must be a side name");
           }
           session->resign(side);
           reply(res, 200, session->describe());
         });
  s.Get(R"(/api/game/([0-9a-f]{1,32})/record)",
        [this](const httplib::Request& req, httplib::Response& res) {
          auto session = find(req.matches[1]);
          if (!session) return fail(res, 404, "no game " + std::string(req.matches[1]));
          res.set_header("Content-Disposition",
                         "attachment; filename=\"pincer-" + session->id() + ".sgn\"");
          res.set_content(session->record(), "text/plain; charset=utf-8");
        });
  s.Post("/api/record", [this](const httplib::Request& req, httplib::Response& res) {
    const Json body = body_json(req);
    if (!body.contains("text") || !body["text"].is_string()) {
      throw QueryError("text", "\"text\" (a game record) is required");
    }
    std::vector<SgnRecord> records;
    try {
      records = parse_sgn(body["text"].get<std::string>());
    } catch (const GameError& e) {
      throw QueryError("text", e.what());
    }
    if (records.empty()) throw QueryError("text", "no record in the text");
    const SgnRecord& r = records.front();
    // The record's ruleset must be one this server has (by name and fingerprint).
    const std::string fingerprint = r.header("Fingerprint");
    std::shared_ptr<Analyzer> analyzer;
    try {
      analyzer = engine_->analyzer_for(fingerprint.empty() ? r.header("Ruleset") : fingerprint);
    } catch (const QueryError& e) {
      throw QueryError("text", std::string("the record's rules: ") + e.what());
    }
    const Game& game = *analyzer->game();
    std::unique_ptr<State> state = r.header("Position").empty()
                                       ? game.initial_state()
                                       : game.parse_state(r.header("Position"));
    const std::string start = state->to_text();
    Json moves = Json::array();
    for (size_t i = 0; i < r.moves.size(); ++i) {
      try {
        const Action a = game.parse_action(*state, r.moves[i]);
        moves.push_back(game.action_text(*state, a, false));
        state->apply(a);
      } catch (const GameError& e) {
        throw QueryError("text",
                         "move " + std::to_string(i + 1) + " (" + r.moves[i] + "): " + e.what());
      }
    }
    reply(res, 200, {{"rules", game.ruleset_name()}, {"position", start}, {"moves", moves}});
  });
  s.Post("/api/position", [this](const httplib::Request& req, httplib::Response& res) {
    // A position and moves, described like a game (legal moves, pieces) without a session.
    const Json body = body_json(req);
    const std::string rules = body.value("rules", std::string());
    std::shared_ptr<Analyzer> analyzer = engine_->analyzer_for(rules);
    const Game& game = *analyzer->game();
    SessionSettings settings;
    settings.bot_plays = {false, false};
    std::unique_ptr<State> start = game.initial_state();
    if (body.contains("position")) {
      if (!body["position"].is_string()) throw QueryError("position", "\"position\" must be text");
      try {
        start = game.parse_start(body["position"].get<std::string>());
      } catch (const GameError& e) {
        throw QueryError("position", e.what());
      }
    }
    GameSession scratch("0", analyzer, std::move(start), settings);
    if (body.contains("moves")) {
      if (!body["moves"].is_array()) throw QueryError("moves", "\"moves\" must be a list");
      for (const Json& m : body["moves"]) {
        if (!m.is_string()) throw QueryError("moves", "\"moves\" must be a list of move texts");
        scratch.play(m.get<std::string>());
      }
    }
    Json d = scratch.describe();
    d.erase("id");
    reply(res, 200, d);
  });
  s.Post("/api/analyze", [this](const httplib::Request& req, httplib::Response& res) {
    const Query q = limited_query(body_json(req));
    auto waiter = std::make_shared<Waiter>();
    if (!engine_->submit(q, sink_to(waiter))) {
      const Json e = waiter->pending.empty() ? Json{{"error", "refused"}} : waiter->pending.back();
      const bool busy = e.value("error", std::string()).rfind("busy", 0) == 0;
      return reply(res, busy ? 503 : 400, e);
    }
    const size_t turns = q.analyze_turns.empty() ? 1 : q.analyze_turns.size();
    std::unique_lock<std::mutex> lock(waiter->mu);
    const auto limit = std::chrono::duration<double>(q.max_time + options_.bot.wait_slack_s);
    if (!waiter->cv.wait_for(lock, limit,
                             [&] { return waiter->finals >= static_cast<int>(turns); })) {
      lock.unlock();
      engine_->terminate(q.id);
      lock.lock();
      waiter->cv.wait(lock, [&] { return waiter->finals >= static_cast<int>(turns); });
    }
    Json out = Json::array();
    for (Json& j : waiter->pending) {
      if (!j.value("isDuringSearch", false)) out.push_back(std::move(j));
    }
    reply(res, 200, {{"responses", out}});
  });
  s.Get("/api/analyze/stream", [this](const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("query")) throw QueryError("query", "?query=<a JSON analysis query>");
    Json body = Json::parse(req.get_param_value("query"), nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
      throw QueryError("query", "\"query\" must be a JSON object");
    }
    const Query q = limited_query(body);
    if (streams_.fetch_add(1) >= options_.max_streams) {
      streams_.fetch_sub(1);
      return fail(res, 503, "too many analysis streams open");
    }
    auto waiter = std::make_shared<Waiter>();
    if (!engine_->submit(q, sink_to(waiter))) {
      streams_.fetch_sub(1);
      const Json e = waiter->pending.empty() ? Json{{"error", "refused"}} : waiter->pending.back();
      return reply(res, 400, e);
    }
    const int turns = q.analyze_turns.empty() ? 1 : static_cast<int>(q.analyze_turns.size());
    auto engine = engine_;
    const Json qid = q.id;
    const double limit = q.max_time + options_.bot.wait_slack_s;
    const auto t0 = std::chrono::steady_clock::now();
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream",
        [waiter, turns, engine, qid, limit, t0](size_t, httplib::DataSink& sink) {
          std::unique_lock<std::mutex> lock(waiter->mu);
          waiter->cv.wait_for(lock, std::chrono::milliseconds(500),
                              [&] { return !waiter->pending.empty(); });
          while (!waiter->pending.empty()) {
            const std::string line =
                "data: " +
                waiter->pending.front().dump(-1, ' ', false, Json::error_handler_t::replace) +
                "\n\n";
            waiter->pending.pop_front();
            if (!sink.write(line.data(), line.size())) {
              lock.unlock();
              engine->terminate(qid);  // the client went away
              return false;
            }
          }
          if (waiter->finals >= turns) {
            const std::string end = "event: end\ndata: {}\n\n";
            sink.write(end.data(), end.size());
            sink.done();
            return true;
          }
          if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >
              limit) {
            lock.unlock();
            engine->terminate(qid);
          }
          return true;
        },
        [this, engine, qid](bool) {
          engine->terminate(qid);
          streams_.fetch_sub(1);
        });
  });
  add_review_route(s, engine_, options_);
  s.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        try {
          std::rethrow_exception(ep);
        } catch (const QueryError& e) {
          fail(res, 400, e.what(), e.field());
        } catch (const std::exception& e) {
          const std::string what = e.what();
          fail(res, what.rfind("busy", 0) == 0 ? 503 : 500, what);
        } catch (...) {
          fail(res, 500, "internal error");
        }
      });
  s.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      fail(res, res.status, res.status == 404 ? "no such page or API" : "bad request");
    }
  });
}

}  // namespace pincer::serve
