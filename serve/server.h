// `pincer serve`: an HTTP server (cpp-httplib) with the play and analyse pages, served from the
// binary, and the JSON API behind them under /api/ (docs/serve.md). Games live on the server by
// id; bots and analyses share one AnalysisEngine and its bounded queue.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "serve/bot.h"
#include "serve/engine.h"
#include "serve/session.h"

namespace httplib {
class Server;
}

namespace pincer::serve {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 8080;                // 0: any free port
  size_t max_games = 1000;        // sessions kept; the least recently used goes first
  double max_query_seconds = 30;  // an API analysis's time limit (also its default)
  int max_query_turns = 400;      // turns per API analysis query
  int max_streams = 8;  // open analysis streams (SSE) at once; each holds a handler thread
  int http_threads = 16;
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
  // Applies the server's limits to an API query; throws QueryError.
  Query limited_query(const Json& body);

  std::shared_ptr<AnalysisEngine> engine_;
  ServerOptions options_;
  std::unique_ptr<httplib::Server> http_;
  std::mutex games_mutex_;
  std::map<std::string, std::shared_ptr<GameSession>> games_;
  std::atomic<int> streams_{0};
  std::atomic<uint64_t> next_query_{0};
};

}  // namespace pincer::serve
