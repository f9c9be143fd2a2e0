#include "engine/text_format.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

namespace pincer {
namespace {

class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  explicit FirstError(TextFormatError& error) : error_(error) {}
  void AddError(int line, int column, const std::string& message) override {
    if (error_.line >= 0 || !error_.message.empty()) return;
    error_.line = line;
    error_.column = column;
    error_.message = message;
  }
  void AddWarning(int, int, const std::string&) override {}

 private:
  TextFormatError& error_;
};

}  // namespace

std::string TextFormatError::describe() const {
  if (message.empty()) return "cannot parse";
  return "line " + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message;
}

bool parse_text_format(const std::string& text, google::protobuf::Message& out,
                       TextFormatError& error, const TextFormatOptions& options) {
  error = TextFormatError{};
  FirstError collector(error);
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&collector);
  parser.AllowUnknownField(options.allow_unknown_fields);
  if (options.locations) parser.WriteLocationsTo(options.locations);
  return parser.ParseFromString(text, &out);
}

}  // namespace pincer
