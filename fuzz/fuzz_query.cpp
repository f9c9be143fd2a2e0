// Analysis queries (serve/query.h): never crash; a query that parses has fields in their ranges,
// and its moves replay or fail with a GameError, as the engine replays them.
#include <string>

#include "fuzz/fuzz_common.h"
#include "serve/query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  const Game& game = fuzz::game(0);
  const std::string text(reinterpret_cast<const char*>(data), size);
  serve::Json id;
  try {
    const serve::Request r = serve::parse_request(text, id);
    if (!(id.is_string() || id.is_number_integer() || id.is_number_unsigned()))
      fuzz::broken("query id");
    if (r.is_action) return 0;
    const serve::Query& q = r.query;
    if (q.max_visits < 0 || q.max_visits > serve::kMaxVisitsLimit || q.max_time < 0 ||
        q.max_time > serve::kMaxTimeLimit || q.moves.size() > serve::kMaxMoves)
      fuzz::broken("query ranges");
    (void)serve::error_response(id, "x", "moves").dump();
    try {
      auto state = q.position.empty() ? game.initial_state() : game.parse_state(q.position);
      for (const std::string& m : q.moves) {
        if (state->outcome().over) break;
        state->apply(game.parse_action(*state, m));
      }
    } catch (const GameError&) {
    }
  } catch (const serve::QueryError& e) {
    (void)serve::error_response(id, e.what(), e.field()).dump();
  }
  return 0;
}
