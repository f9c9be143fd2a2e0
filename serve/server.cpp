#include "serve/server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <random>
#include <set>

#include "engine/record.h"
#include "engine/registry.h"
#include "play/levels.h"
#include "serve/board.h"
#include "serve/http_guard.h"
#include "serve/json_limits.h"
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

// The request body as a JSON object (nested at most kMaxJsonDepth deep) with only the `known`
// fields; throws QueryError.
Json body_json(const httplib::Request& req, const std::set<std::string>& known = {}) {
  if (req.body.empty()) return Json::object();
  Json j = parse_json_limited(req.body);
  if (!j.is_object()) throw QueryError("", "the request body must be a JSON object");
  if (!known.empty()) check_fields(j, known);
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

// Waits until `waiter` has `turns` final responses: up to `limit` seconds, then terminates the
// query and waits up to `grace` more for the answers the stop brings. False when they never came.
bool wait_for_finals(Waiter& waiter, AnalysisEngine& engine, const Json& id, int turns,
                     double limit, double grace) {
  std::unique_lock<std::mutex> lock(waiter.mu);
  const auto done = [&] { return waiter.finals >= turns; };
  if (waiter.cv.wait_for(lock, std::chrono::duration<double>(limit), done)) return true;
  lock.unlock();
  engine.terminate(id);
  lock.lock();
  return waiter.cv.wait_for(lock, std::chrono::duration<double>(grace), done);
}

bool is_loopback(const std::string& bind) {
  return bind == "localhost" || bind == "::1" || bind.rfind("127.", 0) == 0;
}

// The host name of a Host header value ("name:port", "[v6]:port").
std::string host_name(const std::string& host) {
  if (!host.empty() && host[0] == '[') return host.substr(0, host.find(']') + 1);
  return host.substr(0, host.find(':'));
}

// localhost, *.localhost, [::1] or an IPv4 literal 127.x.y.z (not a name that merely starts
// with "127.": an attacker's DNS could answer 127.0.0.1 for "127.evil.example").
bool is_local_name(const std::string& name) {
  in_addr v4{};
  if (::inet_pton(AF_INET, name.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  return name == "localhost" || name == "[::1]" ||
         (name.size() > 10 && name.compare(name.size() - 10, 10, ".localhost") == 0);
}

}  // namespace

Server::Server(std::shared_ptr<AnalysisEngine> engine, ServerOptions options)
    : engine_(std::move(engine)), options_(std::move(options)) {
  ConnectionLimits limits;
  limits.request_seconds = options_.request_seconds;
  limits.max_per_address = options_.max_connections_per_address;
  http_ = std::make_unique<GuardedServer>(limits);
  const int threads = options_.http_threads;
  http_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_->set_payload_max_length(1 << 20);
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
  check_fields(body, {"rules", "human", "level", "clock", "minutes", "position", "moves"});
  const std::string rules = body.contains("rules") ? string_field(body["rules"], "rules") : "";
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
    s.level = static_cast<int>(integer_field(body["level"], "level", kMinLevel, kMaxLevel));
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
    if (!body.contains("minutes")) {
      throw QueryError("minutes", "\"minutes\" (0 < minutes <= 600) is required with a clock");
    }
    const double minutes = number_field(body["minutes"], "minutes", 0, 600);
    if (!(minutes > 0)) throw QueryError("minutes", "\"minutes\" must be more than 0");
    s.clock_seconds = minutes * 60;
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

Query Server::limited_query(Json j, const std::string& client) {
  Json id;
  if (!j.is_object()) throw QueryError("", "a query must be a JSON object");
  if (!j.contains("id")) j["id"] = "api-" + std::to_string(next_query_++);
  Request r = parse_request_json(j, id);
  if (r.is_action) throw QueryError("action", "actions are not served over HTTP");
  Query q = r.query;
  // Unique per request, so that terminate never reaches another client's query.
  q.id = "http-" + std::to_string(next_query_++) + "-" +
         (id.is_string() ? id.get<std::string>() : id.dump());
  const size_t turns = q.analyze_turns.empty() ? 1 : q.analyze_turns.size();
  if (turns > static_cast<size_t>(options_.max_query_turns)) {
    throw QueryError("analyzeTurns",
                     "at most " + std::to_string(options_.max_query_turns) + " turns per request");
  }
  // One request's engine time, all its turns together, is at most --max-query-seconds.
  const double per_turn = options_.max_query_seconds / static_cast<double>(turns);
  if (q.max_time <= 0 || q.max_time > per_turn) q.max_time = per_turn;
  // Priorities: a client orders its own analyses; bot moves go before any (kBotPriority), and
  // one client's turns take at most its share of the engine's workers.
  q.priority = std::min(q.priority, kBotPriority - 1);
  q.client = client;
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
           const Json body = body_json(req, {"move"});
           if (!body.contains("move")) {
             throw QueryError("move", "\"move\" (the move's text) is required");
           }
           session->play(string_field(body["move"], "move"));
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
           const Json body = body_json(req, {"side"});
           int side = -1;
           if (body.contains("side")) {
             side = session->analyzer()->game()->parse_side(string_field(body["side"], "side"));
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
    const Json body = body_json(req, {"text"});
    if (!body.contains("text")) throw QueryError("text", "\"text\" (a game record) is required");
    string_field(body["text"], "text");
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
    std::unique_ptr<State> state;
    try {
      state = r.header("Position").empty() ? game.initial_state()
                                           : game.parse_state(r.header("Position"));
    } catch (const GameError& e) {
      throw QueryError("text", std::string("the record's [Position]: ") + e.what());
    }
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
    const Json body = body_json(req, {"rules", "position", "moves"});
    const std::string rules = body.contains("rules") ? string_field(body["rules"], "rules") : "";
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
        try {
          scratch.play(m.get<std::string>());
        } catch (const QueryError& e) {
          throw QueryError("moves", e.what());
        }
      }
    }
    Json d = scratch.describe();
    d.erase("id");
    reply(res, 200, d);
  });
  s.Post("/api/analyze", [this](const httplib::Request& req, httplib::Response& res) {
    const Query q = limited_query(body_json(req), req.remote_addr);
    auto waiter = std::make_shared<Waiter>();
    if (!engine_->submit(q, sink_to(waiter))) {
      const Json e = waiter->pending.empty() ? Json{{"error", "refused"}} : waiter->pending.back();
      const bool busy = e.value("error", std::string()).rfind("busy", 0) == 0;
      return reply(res, busy ? 503 : 400, e);
    }
    const int turns = q.analyze_turns.empty() ? 1 : static_cast<int>(q.analyze_turns.size());
    // The turns run one after another at worst: the request's engine time, then the queue.
    const double limit = options_.max_query_seconds + options_.bot.wait_slack_s;
    if (!wait_for_finals(*waiter, *engine_, q.id, turns, limit, options_.bot.wait_slack_s)) {
      return fail(res, 503, "busy: the analysis did not finish in time");
    }
    std::lock_guard<std::mutex> lock(waiter->mu);
    Json out = Json::array();
    for (Json& j : waiter->pending) {
      if (!j.value("isDuringSearch", false)) out.push_back(std::move(j));
    }
    reply(res, 200, {{"responses", out}});
  });
  s.Get("/api/analyze/stream", [this](const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("query")) throw QueryError("query", "?query=<a JSON analysis query>");
    Json body = parse_json_limited(req.get_param_value("query"), "query");
    if (!body.is_object()) throw QueryError("query", "\"query\" must be a JSON object");
    const Query q = limited_query(std::move(body), req.remote_addr);
    if (streams_.fetch_add(1) >= options_.max_streams) {
      streams_.fetch_sub(1);
      return fail(res, 503, "busy: too many analysis streams open");
    }
    auto waiter = std::make_shared<Waiter>();
    if (!engine_->submit(q, sink_to(waiter))) {
      streams_.fetch_sub(1);
      const Json e = waiter->pending.empty() ? Json{{"error", "refused"}} : waiter->pending.back();
      const bool busy = e.value("error", std::string()).rfind("busy", 0) == 0;
      return reply(res, busy ? 503 : 400, e);
    }
    const int turns = q.analyze_turns.empty() ? 1 : static_cast<int>(q.analyze_turns.size());
    auto engine = engine_;
    const Json qid = q.id;
    // Terminated after the request's engine time and the queue's slack; ended (with an error
    // event) when even the stop brings no answer within the slack again.
    const double limit = options_.max_query_seconds + options_.bot.wait_slack_s;
    const double give_up = limit + options_.bot.wait_slack_s;
    const auto t0 = std::chrono::steady_clock::now();
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream",
        [waiter, turns, engine, qid, limit, give_up, t0, terminated = false](
            size_t, httplib::DataSink& sink) mutable {
          const auto write = [&](const std::string& text) {
            return sink.write(text.data(), text.size());
          };
          if (!sink.is_writable()) {  // the client went away
            engine->terminate(qid);
            return false;
          }
          std::unique_lock<std::mutex> lock(waiter->mu);
          waiter->cv.wait_for(lock, std::chrono::milliseconds(500),
                              [&] { return !waiter->pending.empty(); });
          while (!waiter->pending.empty()) {
            const std::string line =
                "data: " +
                waiter->pending.front().dump(-1, ' ', false, Json::error_handler_t::replace) +
                "\n\n";
            waiter->pending.pop_front();
            if (!write(line)) {
              lock.unlock();
              engine->terminate(qid);  // the client went away
              return false;
            }
          }
          const double elapsed =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          if (waiter->finals >= turns || elapsed > give_up) {
            if (waiter->finals < turns) {
              write("data: {\"error\":\"busy: the analysis did not finish in time\"}\n\n");
            }
            write("event: end\ndata: {}\n\n");
            sink.done();
            return true;
          }
          lock.unlock();
          if (elapsed > limit && !terminated) {
            engine->terminate(qid);
            terminated = true;
          }
          // A comment line now and then: a client that has gone is noticed by the write.
          return write(": waiting\n\n") || (engine->terminate(qid), false);
        },
        [this, engine, qid](bool) {
          engine->terminate(qid);
          streams_.fetch_sub(1);
        });
  });
  add_review_route(s, engine_, options_);
  s.Options(".*", [](const httplib::Request&, httplib::Response& res) { res.status = 204; });
  // Host and Origin (see guard_origin): before any route, and before a body is read.
  s.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    return guard_origin(req, res) ? httplib::Server::HandlerResponse::Unhandled
                                  : httplib::Server::HandlerResponse::Handled;
  });
  s.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        try {
          std::rethrow_exception(ep);
        } catch (const GameOver& e) {
          fail(res, 409, e.what(), e.field());
        } catch (const QueryError& e) {
          fail(res, 400, e.what(), e.field());
        } catch (const Json::exception& e) {
          // A type the handler did not check: still the client's request.
          fail(res, 400, std::string("bad request: ") + e.what());
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

bool Server::guard_origin(const httplib::Request& req, httplib::Response& res) const {
  const std::string host = req.get_header_value("Host");
  const std::string origin = req.get_header_value("Origin");
  const auto refuse = [&](const std::string& why) {
    spdlog::warn("refused {} {} from {}: {}", req.method, req.path, req.remote_addr, why);
    fail(res, 403, why);
    return false;
  };
  // Bound to loopback, the server is only for this machine: a request naming another host is
  // a page of another site that reached it through DNS rebinding.
  if (is_loopback(options_.bind) && !host.empty() && !is_local_name(host_name(host))) {
    return refuse("Host \"" + host + "\" is not this server (it answers to localhost names)");
  }
  if (origin.empty()) return true;  // not from a browser's cross-origin request
  const bool allowed = std::find(options_.allowed_origins.begin(), options_.allowed_origins.end(),
                                 origin) != options_.allowed_origins.end() ||
                       std::find(options_.allowed_origins.begin(), options_.allowed_origins.end(),
                                 "*") != options_.allowed_origins.end();
  if (allowed) {
    res.set_header("Access-Control-Allow-Origin", origin);
    res.set_header("Vary", "Origin");
    if (req.method == "OPTIONS") {
      res.set_header("Access-Control-Allow-Methods", "GET, POST");
      res.set_header("Access-Control-Allow-Headers", "Content-Type");
      res.set_header("Access-Control-Max-Age", "600");
      res.status = 204;
      return false;  // answered here
    }
    return true;
  }
  // The server's own pages: the origin is the address the browser asked for.
  if (!host.empty() && (origin == "http://" + host || origin == "https://" + host)) return true;
  return refuse("Origin \"" + origin +
                "\" may not use this server (pincer serve --allow-origin allows a site)");
}

}  // namespace pincer::serve
