// Rulesets as data: finding a ruleset file, parsing text protos strictly, the fingerprint, the
// provenance notes and the generated rules page. Generic over games: it works by reflection on
// each game's own rules message.
#pragma once

#include <string>
#include <vector>

#include "proto/ruleset.pb.h"

namespace pincer {

// The text of a ruleset file and where it came from.
struct RulesetSource {
  std::string text;
  std::string origin;  // "embedded:seize-v0" or a file path
};

// `name_or_path` is a ruleset name shipped in configs/rulesets/ (compiled in) or a file path.
// Throws GameError listing the known names when it is neither.
RulesetSource find_ruleset(const std::string& name_or_path);
std::vector<std::string> shipped_ruleset_names();

// Parses text-format `text` into `out`, refusing unknown fields; throws GameError with the
// origin, line and column of the first problem.
void parse_text_proto(const std::string& text, const std::string& origin,
                      google::protobuf::Message& out);
// Parses a whole ruleset file (the game's own ruleset message, strictly) into `out`. When the
// file names a `base` ruleset, the base is parsed first (recursively, same game required) and
// this file is merged over it: every rules field the file sets replaces the base's value (a
// repeated field as a whole), header fields (name, title, summary) are the file's, and notes are
// inherited except where the file gives its own note for a field. The fingerprint is then over
// the merged rules. Throws GameError with the origin of the failing file.
void parse_ruleset_file(const RulesetSource& source, google::protobuf::Message& out);
// Reads only the fields shared by every ruleset file (game, name, notes), ignoring the rest.
RulesetHeader parse_ruleset_header(const RulesetSource& source);

// 16 hex digits: XXH64 of the game name and the deterministic binary serialization of `rules`.
// Comments, formatting, notes and descriptions do not enter it.
std::string ruleset_fingerprint(const std::string& game, const google::protobuf::Message& rules);

// Dotted paths of every leaf field of a rules message type ("capture.directions", ...).
std::vector<std::string> leaf_field_paths(const google::protobuf::Descriptor& rules_type);
// The value of a leaf field as text ("ORTHOGONAL", "600", "[f1, a3]").
std::string field_value_text(const google::protobuf::Message& rules, const std::string& path);
// Problems with the notes of a ruleset: leaf fields without a note, notes for unknown fields,
// duplicate notes, empty descriptions, sources other than "seed NNN" or "guessed".
std::vector<std::string> note_problems(const google::protobuf::Message& rules,
                                       const google::protobuf::RepeatedPtrField<FieldNote>& notes);

// The rules page (Markdown) for a loaded ruleset file: every field with value, source and
// description, then the guessed fields. `ruleset` is the game's whole ruleset message.
std::string rules_markdown(const google::protobuf::Message& ruleset,
                           const std::string& fingerprint);

}  // namespace pincer
