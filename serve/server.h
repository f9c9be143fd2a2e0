// `pincer serve`: an HTTP server (cpp-httplib) with the play and analyse pages, served from the
// binary, and the JSON API behind them under /api/ (docs/serve.md). Games live on the server by
// id; bots and analyses share one AnalysisEngine and its bounded queue.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "serve/bot.h"
#include "serve/engine.h"
#include "serve/session.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace pincer::serve {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 8080;                // 0: any free port
  size_t max_games = 1000;        // sessions kept; the least recently used goes first
  double max_query_seconds = 30;  // engine time of one API analysis request, all turns together
  int max_query_turns = 400;      // turns per API analysis query
  int max_streams = 8;  // open analysis streams (SSE) at once; each holds a handler thread
  int http_threads = 32;
  // Slow and greedy clients (serve/http_guard.h): a whole request must arrive within
  // request_seconds; one client address has at most this many connections served at once.
  double request_seconds = 10;
  int max_connections_per_address = 16;
  // Origins (e.g. "https://tools.example", "*" for any) whose pages may use the API besides the
  // server's own; see guard_origin.
  std::vector<std::string> allowed_origins;
  // Connections waiting to be accepted (the listen backlog; the kernel caps it at somaxconn).
  int listen_backlog = 1024;
  BotOptions bot;
  uint64_t seed = 1;
};

class Server {
 public:
  Server(std::shared_ptr<AnalysisEngine> engine, ServerOptions options);
  ~Server();
  // Binds; returns the port (useful with port 0). Throws std::runtime_error when it cannot.
  int bind();
  // Serves until stop(); call after bind().
  void run();
  void stop();

 private:
  void routes();
  std::shared_ptr<GameSession> find(const std::string& id);
  std::shared_ptr<GameSession> create(const Json& body);
  Json info() const;
  // Applies the server's limits to an API query from `client` (its address); throws QueryError.
  Query limited_query(Json body, const std::string& client);
  // Host and Origin: false (with a 403 or a preflight's answer in `res`) when the request must
  // not reach the routes. Bound to loopback, only localhost names are this server's Host; an
  // Origin must be the server's own or an allowed one.
  bool guard_origin(const httplib::Request& req, httplib::Response& res) const;

  std::shared_ptr<AnalysisEngine> engine_;
  ServerOptions options_;
  std::unique_ptr<httplib::Server> http_;
  std::mutex games_mutex_;
  std::map<std::string, std::shared_ptr<GameSession>> games_;
  std::atomic<int> streams_{0};
  std::atomic<uint64_t> next_query_{0};
};

}  // namespace pincer::serve
