#include "train/status_line.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "engine/clock.h"

namespace pincer {
namespace {

std::string fmt_num(double v) {
  char buf[32];
  if (v >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
  } else if (v >= 1e4) {
    std::snprintf(buf, sizeof buf, "%.1fk", v / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  }
  return buf;
}

std::string short_id(const std::string& id) {
  const auto slash = id.rfind('/');
  return slash == std::string::npos ? id : id.substr(slash + 1);
}

}  // namespace

std::string status_text(double core_hours, int64_t step, int64_t games, int64_t positions,
                        double samples_per_s, double policy_loss, double value_loss,
                        const std::string& best, const std::string& last_gate, int64_t reanalysed,
                        const std::string& growth) {
  const std::string positions_text =
      fmt_num(positions) + (reanalysed > 0 ? " | reanalysed " + fmt_num(reanalysed) : "");
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%.2f core-h | step %lld | games %s | positions %s | %s samples/s | loss p %.3f "
                "v %.3f | best %s%s%s%s%s",
                core_hours, static_cast<long long>(step), fmt_num(games).c_str(),
                positions_text.c_str(), fmt_num(samples_per_s).c_str(), policy_loss, value_loss,
                short_id(best).c_str(), growth.empty() ? "" : " | ", growth.c_str(),
                last_gate.empty() ? "" : " | gate ", last_gate.c_str());
  return buf;
}

StatusLine::StatusLine(bool enabled) : enabled_(enabled), tty_(::isatty(2)) {}

bool StatusLine::due(bool force) const {
  return enabled_ && (force || steady_seconds() - last_ >= (tty_ ? 0.5 : 30.0));
}

void StatusLine::show(const std::string& line) {
  last_ = steady_seconds();
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
  } else {
    spdlog::info("{}", line);
  }
}

void StatusLine::clear() const {
  if (enabled_ && tty_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace pincer
