// One small class around hiredis (Debian's libhiredis): a blocking connection to one Redis
// server with a connect/command timeout, and commands that reconnect with backoff (logging each
// retry) for up to `retry_s` seconds before they throw StoreUnavailable. Replies are copied into
// plain values; an error reply is a RedisReplyError.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "store/store.h"

struct redisContext;

namespace pincer {

class RedisReplyError : public StoreError {
 public:
  using StoreError::StoreError;
};

struct RedisReply {
  enum Type { kNil, kString, kInteger, kArray, kStatus } type = kNil;
  std::string str;  // kString, kStatus
  long long integer = 0;
  std::vector<RedisReply> elements;
  bool nil() const { return type == kNil; }
};

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  double timeout_s = 5;
  double retry_s = 600;  // how long a command retries an unreachable server; 0: no retry
};

class RedisClient {
 public:
  explicit RedisClient(RedisOptions options);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Runs one command (arguments binary-safe); retries on connection failures. Commands given
  // here must be safe to run twice (a reply lost with the connection is retried).
  RedisReply command(const std::vector<std::string>& args);
  // The same, without retrying: StoreUnavailable at once when the server is unreachable.
  RedisReply command_once(const std::vector<std::string>& args);
  std::string where() const;

 private:
  void connect();
  void disconnect();
  RedisOptions options_;
  redisContext* ctx_ = nullptr;
};

}  // namespace pincer
