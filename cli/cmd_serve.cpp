// pincer serve: the web server with the play and analyse pages and the /api/ JSON API
// (docs/serve.md). Binds 127.0.0.1 by default; prints the address it listens on; Ctrl-C stops it.
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <thread>

#include "book/serve_book.h"
#include "cli/backend_setup.h"
#include "cli/support/commands.h"
#include "serve/backends.h"
#include "serve/server.h"

namespace pincer::cli {
namespace {

struct ServeArgs {
  BackendSetup setup;
  serve::EngineOptions engine;
  serve::ServerOptions server;
  std::vector<std::string> books;
  bool bot_book = false;
};

void run(ServeArgs& args) {
  serve::BackendOptions& backends = args.setup.backends;
  const std::vector<std::string> shipped_books = prepare_backends(args.setup, "pincer serve", true);
  // Ctrl-C and SIGTERM are taken by one thread that stops the server; block them everywhere
  // else (threads started from here on inherit the mask).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  backends.seed = args.engine.seed;
  args.server.seed = args.engine.seed;
  args.server.bot.full_visits = backends.default_visits;
  args.engine.reserve_for_bots = true;  // a worker is always free for a bot move
  auto analyzers = serve::make_analyzers(backends);
  // Books named on the command line replace the shipped ones.
  book::add_books(analyzers, args.books.empty() ? shipped_books : args.books, args.bot_book);
  for (const auto& a : analyzers) {
    std::printf("pincer serve: %s: %s\n", a->game()->ruleset_name().c_str(),
                a->description().c_str());
  }
  auto engine = std::make_shared<serve::AnalysisEngine>(std::move(analyzers), args.engine);
  serve::Server server(engine, args.server);
  const int port = server.bind();
  std::printf("pincer serve: listening on http://%s:%d/\n", args.server.bind.c_str(), port);
  std::fflush(stdout);
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    spdlog::info("signal {}: stopping", sig);
    server.stop();
  });
  server.run();
  // Stopped by a signal, or the server failed: make sure the waiter ends either way.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
}

RegisterCommand register_serve{
    "serve", "Web server: play and analyse in the browser, JSON API under /api/",
    [](CLI::App& app) {
      auto args = std::make_shared<ServeArgs>();
      app.add_option("--rules", args->setup.backends.rules,
                     "Ruleset name or file (repeat for several; default: every shipped one)");
      add_backend_setup_options(app, args->setup, true);
      app.add_option("--port", args->server.port, "TCP port (0: any free port)")
          ->capture_default_str()
          ->check(CLI::Range(0, 65535));
      app.add_option("--bind", args->server.bind, "Address to listen on")->capture_default_str();
      app.add_option("--threads", args->engine.threads, "Searches (bot moves, analyses) at once")
          ->capture_default_str()
          ->check(CLI::Range(1, 256));
      app.add_option("--queue", args->engine.max_queued_turns, "Turns waiting at most")
          ->capture_default_str();
      app.add_option("--max-games", args->server.max_games, "Games kept on the server")
          ->capture_default_str();
      app.add_option("--bot-seconds", args->server.bot.untimed_seconds,
                     "Thinking time of a bot move without a clock")
          ->capture_default_str();
      app.add_option("--max-query-seconds", args->server.max_query_seconds,
                     "Engine time of one API analysis request, all its turns together")
          ->capture_default_str()
          ->check(CLI::Range(0.01, 86400.0));
      app.add_option("--allow-origin", args->server.allowed_origins,
                     "A web site (https://host[:port], or * for any) whose pages may use the API "
                     "(repeatable; the server's own pages always may)");
      app.add_option("--max-connections-per-address", args->server.max_connections_per_address,
                     "Connections of one client address served at once (0: no cap)")
          ->capture_default_str()
          ->check(CLI::Range(0, 100000));
      app.add_option("--request-seconds", args->server.request_seconds,
                     "A whole request (line, headers, body) must arrive within this")
          ->capture_default_str()
          ->check(CLI::Range(0.1, 3600.0));
      app.add_option("--book", args->books,
                     "Opening book (pincer book build): analyses show its moves (repeatable)");
      app.add_flag("--bot-book", args->bot_book, "The bot plays the book's move while in book");
      app.add_option("--seed", args->engine.seed, "Seed of bots and searches")
          ->capture_default_str();
      app.callback([args] { run(*args); });
    }};

}  // namespace
}  // namespace pincer::cli
