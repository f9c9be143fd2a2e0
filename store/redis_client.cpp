#include "store/redis_client.h"

#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace pincer {
namespace {

timeval to_timeval(double s) {
  timeval tv;
  tv.tv_sec = static_cast<long>(s);
  tv.tv_usec = static_cast<long>((s - tv.tv_sec) * 1e6);
  return tv;
}

RedisReply convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.type = RedisReply::kString;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = RedisReply::kStatus;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::kArray;
      out.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
      break;
    case REDIS_REPLY_ERROR: {
      const std::string what(r->str, r->len);
      // A server that is loading its data or failing over answers these: try again later.
      for (const char* transient : {"LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN"}) {
        if (what.rfind(transient, 0) == 0) throw StoreUnavailable("redis: " + what);
      }
      throw RedisReplyError("redis: " + what);
    }
    default:
      break;
  }
  return out;
}

}  // namespace

RedisClient::RedisClient(RedisOptions options) : options_(std::move(options)) {}

RedisClient::~RedisClient() { disconnect(); }

std::string RedisClient::where() const {
  return "redis " + options_.host + ":" + std::to_string(options_.port);
}

void RedisClient::disconnect() {
  if (ctx_) redisFree(ctx_);
  ctx_ = nullptr;
}

void RedisClient::connect() {
  disconnect();
  redisContext* c =
      redisConnectWithTimeout(options_.host.c_str(), options_.port, to_timeval(options_.timeout_s));
  if (!c || c->err) {
    const std::string why = c ? c->errstr : "out of memory";
    if (c) redisFree(c);
    throw StoreUnavailable(where() + " unreachable: " + why);
  }
  if (redisSetTimeout(c, to_timeval(options_.timeout_s)) != REDIS_OK) {
    redisFree(c);
    throw StoreUnavailable(where() + ": cannot set the command timeout");
  }
  ctx_ = c;
}

RedisReply RedisClient::command_once(const std::vector<std::string>& args) {
  if (!ctx_) connect();
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  auto* r = static_cast<redisReply*>(
      redisCommandArgv(ctx_, static_cast<int>(args.size()), argv.data(), lens.data()));
  if (!r) {
    const std::string why = ctx_->errstr;
    disconnect();  // the connection is unusable after an I/O error
    throw StoreUnavailable(where() + ": " + (why.empty() ? "connection lost" : why));
  }
  std::unique_ptr<redisReply, void (*)(void*)> owned(r, freeReplyObject);
  return convert(r);
}

RedisReply RedisClient::command(const std::vector<std::string>& args) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(options_.retry_s);
  double backoff = 0.1;
  for (int attempt = 1;; ++attempt) {
    try {
      RedisReply r = command_once(args);
      if (attempt > 1) spdlog::info("{} reachable again", where());
      return r;
    } catch (const StoreUnavailable& e) {
      const double left = std::chrono::duration<double>(deadline - clock::now()).count();
      if (left <= 0) {
        throw StoreUnavailable(std::string(e.what()) + " (gave up after " +
                               std::to_string(attempt) + " attempts)");
      }
      const double wait = std::min(backoff, left);
      spdlog::warn("{}; retry {} in {:.1f} s ({:.0f} s left before giving up)", e.what(), attempt,
                   wait, left);
      std::this_thread::sleep_for(std::chrono::duration<double>(wait));
      backoff = std::min(backoff * 2, 5.0);
    }
  }
}

}  // namespace pincer
