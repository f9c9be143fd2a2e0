// The live status line of `pincer train` on stderr: '\r'-updated twice a second on a terminal,
// a log line every 30 s otherwise.
#pragma once

#include <cstdint>
#include <string>

namespace pincer {

// One line on the state of a run dir for people (used by the standalone commands too): the
// run's CPU time in core-hours first (train/cpu_time.h), then step, data, losses, best model.
// `reanalysed` > 0 (selfplay.reanalyse_share): the positions whose targets reanalyses replaced,
// after the positions. `growth` (RunConfig.growth, Trainer::growth_status): "growing
// 3x32->5x64 1200/3000" or "net 5x64 since step 9000", after the best model.
std::string status_text(double core_hours, int64_t step, int64_t games, int64_t positions,
                        double samples_per_s, double policy_loss, double value_loss,
                        const std::string& best, const std::string& last_gate,
                        int64_t reanalysed = 0, const std::string& growth = "");

class StatusLine {
 public:
  explicit StatusLine(bool enabled);
  // Whether a line is due now (always when `force`); show() it then.
  bool due(bool force) const;
  void show(const std::string& line);
  // Clears a terminal line before a log message.
  void clear() const;

 private:
  bool enabled_;
  bool tty_;
  double last_ = 0;
};

}  // namespace pincer
