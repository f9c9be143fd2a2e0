// POST /api/review: the review of a game (serve/review.h) for the page's Review button.
#pragma once

#include <memory>

#include "serve/engine.h"
#include "serve/server.h"

namespace httplib {
class Server;
}

namespace pincer::serve {

// Body {"rules","position","moves"[,"visits","seconds"]}; answers the review JSON. At most
// `options.max_query_turns` turns; a turn's time at most `options.max_query_seconds`.
void add_review_route(httplib::Server& http, std::shared_ptr<AnalysisEngine> engine,
                      const ServerOptions& options);

}  // namespace pincer::serve
