#include "train/gate_log.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <stdexcept>

namespace pincer {
namespace {

class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (this->line < 0) this->line = line, this->column = column, this->message = message;
  }
  void AddWarning(int, int, const std::string&) override {}
  int line = -1, column = 0;
  std::string message;
};

}  // namespace

GateLog parse_gate_log(const std::string& text, const std::string& origin) {
  GateLog log;
  FirstError errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &log)) {
    throw std::runtime_error(origin + ": damaged gate log (line " +
                             std::to_string(errors.line + 1) + ":" +
                             std::to_string(errors.column + 1) + ": " + errors.message + ")");
  }
  return log;
}

}  // namespace pincer
