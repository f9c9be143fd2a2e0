#include "book/serve_book.h"

#include "book/player.h"
#include "book/report.h"

namespace pincer::book {
namespace {

using serve::Json;

class BookAnalyzer : public serve::Analyzer {
 public:
  BookAnalyzer(std::shared_ptr<serve::Analyzer> inner, std::shared_ptr<const OpeningBook> book,
               std::string path, bool bot_plays_book)
      : inner_(std::move(inner)),
        book_(std::move(book)),
        path_(std::move(path)),
        bot_plays_book_(bot_plays_book) {}

  const GamePtr& game() const override { return inner_->game(); }
  std::string description() const override { return inner_->description() + " with book " + path_; }
  void clear_cache() override { inner_->clear_cache(); }

  Json analyze(const State& state, const serve::TurnRequest& request) override {
    const BookPosition* p = book_->find(state.hash());
    if (!p) return inner_->analyze(state, request);
    const auto linked = [this](const BookPosition* c) {
      return c && (c->searched() || c->terminal());
    };
    Json view = position_report(*book_, *p, state, linked);
    view.erase("view");  // the page has the board already
    // A bot's move (early_stop) in book: the book's move is the only candidate.
    if (bot_plays_book_ && request.early_stop) {
      const Action a = book_move(*book_, state, BookPlayOptions{}, 0.0);
      if (a >= 0) {
        const double win = (p->value() + 1) / 2;
        Json m{{"move", game()->action_text(state, a, true)}, {"visits", p->visits()}};
        m.update(serve::wdl_json(win, 0, 1 - win));
        m["prior"] = 1.0;
        m["order"] = 0;
        Json root{{"visits", p->visits()}};
        root.update(serve::wdl_json(win, 0, 1 - win));
        return {{"rootInfo", root},
                {"moveInfos", Json::array({m})},
                {"book", view},
                {"fromBook", true}};
      }
    }
    serve::TurnRequest req = request;
    if (request.report) {
      req.report = [&view, report = request.report](Json partial) {
        partial["book"] = view;
        report(std::move(partial));
      };
    }
    Json out = inner_->analyze(state, req);
    out["book"] = std::move(view);
    return out;
  }

 private:
  std::shared_ptr<serve::Analyzer> inner_;
  std::shared_ptr<const OpeningBook> book_;
  std::string path_;
  bool bot_plays_book_;
};

}  // namespace

std::shared_ptr<serve::Analyzer> analyzer_with_book(std::shared_ptr<serve::Analyzer> inner,
                                                    std::shared_ptr<const OpeningBook> book,
                                                    const std::string& path, bool bot_plays_book) {
  return std::make_shared<BookAnalyzer>(std::move(inner), std::move(book), path, bot_plays_book);
}

void add_books(std::vector<std::shared_ptr<serve::Analyzer>>& analyzers,
               const std::vector<std::string>& paths, bool bot_plays_book) {
  for (const std::string& path : paths) {
    const BookHeader header = OpeningBook::read_header(path);
    bool found = false;
    for (auto& a : analyzers) {
      if (a->game()->fingerprint() != header.fingerprint()) continue;
      a = analyzer_with_book(a, shared_book(path, *a->game()), path, bot_plays_book);
      found = true;
      break;
    }
    if (!found) {
      throw std::invalid_argument("--book " + path + ": its ruleset " + header.ruleset_name() +
                                  " (fingerprint " + header.fingerprint() +
                                  ") is not among the served --rules");
    }
  }
}

}  // namespace pincer::book
