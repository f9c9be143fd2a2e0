#include "engine/ruleset.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <xxhash.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "engine/embedded.h"
#include "engine/game.h"
#include "engine/text_format.h"

namespace pincer {

namespace pb = google::protobuf;

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return static_cast<bool>(in) || in.eof();
}

void collect_leaves(const pb::Descriptor& type, const std::string& prefix,
                    std::vector<std::string>& out) {
  for (int i = 0; i < type.field_count(); ++i) {
    const pb::FieldDescriptor* f = type.field(i);
    const std::string path = prefix.empty() ? f->name() : prefix + "." + f->name();
    if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE && !f->is_repeated()) {
      collect_leaves(*f->message_type(), path, out);
    } else {
      out.push_back(path);
    }
  }
}

// Follows a dotted path down singular message fields; returns the owning message and the leaf.
const pb::FieldDescriptor* resolve(const pb::Message& root, const std::string& path,
                                   const pb::Message** owner) {
  const pb::Message* msg = &root;
  std::string rest = path;
  while (true) {
    const size_t dot = rest.find('.');
    const std::string name = rest.substr(0, dot);
    const pb::FieldDescriptor* f = msg->GetDescriptor()->FindFieldByName(name);
    if (!f) return nullptr;
    if (dot == std::string::npos) {
      *owner = msg;
      return f;
    }
    if (f->type() != pb::FieldDescriptor::TYPE_MESSAGE || f->is_repeated()) return nullptr;
    msg = &msg->GetReflection()->GetMessage(*msg, f);
    rest = rest.substr(dot + 1);
  }
}

std::string scalar_text(const pb::Message& msg, const pb::FieldDescriptor* f, int index) {
  std::string out;
  pb::TextFormat::Printer printer;
  printer.PrintFieldValueToString(msg, f, index, &out);
  if (out.size() >= 2 && out.front() == '"' && out.back() == '"')
    out = out.substr(1, out.size() - 2);
  return out;
}

bool valid_source(const std::string& source) {
  static const std::regex kSource("seed [0-9]{3}|guessed");
  return std::regex_match(source, kSource);
}

}  // namespace

std::vector<std::string> shipped_ruleset_names() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : embedded_rulesets()) names.emplace_back(f.name);
  return names;
}

RulesetSource find_ruleset(const std::string& name_or_path) {
  for (const EmbeddedFile& f : embedded_rulesets()) {
    if (name_or_path == f.name) return {f.text, std::string("embedded:") + f.name};
  }
  std::string text;
  if (name_or_path.find('/') != std::string::npos ||
      name_or_path.find(".textproto") != std::string::npos) {
    if (read_file(name_or_path, text)) return {text, name_or_path};
    throw GameError("cannot read ruleset file '" + name_or_path + "'");
  }
  std::string known;
  for (const std::string& n : shipped_ruleset_names()) known += (known.empty() ? "" : ", ") + n;
  throw GameError("unknown ruleset '" + name_or_path + "' (known: " + known +
                  "; or give a path to a .textproto file)");
}

void parse_text_proto(const std::string& text, const std::string& origin, pb::Message& out) {
  TextFormatError error;
  if (!parse_text_format(text, out, error)) throw GameError(origin + ": " + error.describe());
}

namespace {

// Clears in `out` every field that the text behind `tree` sets, so that merging the parsed text
// over `out` replaces those fields (a proto3 scalar set to its default is then default too) and
// keeps the rest. Singular messages are walked into; the top-level notes are kept (merged later).
void clear_fields_set_by(const pb::TextFormat::ParseInfoTree* tree, pb::Message& out,
                         bool top_level) {
  const pb::Descriptor* type = out.GetDescriptor();
  const pb::Reflection* refl = out.GetReflection();
  for (int i = 0; i < type->field_count(); ++i) {
    const pb::FieldDescriptor* f = type->field(i);
    const int index = f->is_repeated() ? 0 : -1;
    if (tree->GetLocation(f, index).line < 0) continue;
    if (f->is_repeated()) {
      if (!(top_level && f->name() == "notes")) refl->ClearField(&out, f);
    } else if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE) {
      const pb::TextFormat::ParseInfoTree* nested = tree->GetTreeForNested(f, -1);
      if (nested) clear_fields_set_by(nested, *refl->MutableMessage(&out, f), false);
    } else {
      refl->ClearField(&out, f);
    }
  }
}

// Keeps one note per field: the last one given, at the place of the first.
void keep_last_note_per_field(pb::Message& ruleset) {
  const pb::FieldDescriptor* f = ruleset.GetDescriptor()->FindFieldByName("notes");
  if (!f) return;
  const pb::Reflection* refl = ruleset.GetReflection();
  std::vector<FieldNote> notes;
  std::map<std::string, size_t> at;
  for (int i = 0; i < refl->FieldSize(ruleset, f); ++i) {
    FieldNote note;
    note.ParseFromString(refl->GetRepeatedMessage(ruleset, f, i).SerializeAsString());
    auto it = at.find(note.field());
    if (it == at.end()) {
      at[note.field()] = notes.size();
      notes.push_back(note);
    } else {
      notes[it->second] = note;
    }
  }
  refl->ClearField(&ruleset, f);
  for (const FieldNote& note : notes)
    refl->AddMessage(&ruleset, f)->ParseFromString(note.SerializeAsString());
}

void parse_ruleset_file_at(const RulesetSource& source, pb::Message& out, int depth) {
  const RulesetHeader header = parse_ruleset_header(source);
  out.Clear();
  if (header.base().empty()) {
    parse_text_proto(source.text, source.origin, out);
    return;
  }
  if (depth >= 8)
    throw GameError(source.origin + ": base rulesets nest more than 8 deep (a cycle?)");
  RulesetSource base;
  try {
    base = find_ruleset(header.base());
  } catch (const GameError& e) {
    throw GameError(source.origin + ": base: " + e.what());
  }
  const RulesetHeader base_header = parse_ruleset_header(base);
  if (base_header.game() != header.game())
    throw GameError(source.origin + ": base '" + header.base() + "' is a ruleset of game '" +
                    base_header.game() + "', not '" + header.game() + "'");
  parse_ruleset_file_at(base, out, depth + 1);

  std::unique_ptr<pb::Message> own(out.New());
  pb::TextFormat::ParseInfoTree tree;
  TextFormatError error;
  if (!parse_text_format(source.text, *own, error, {false, &tree}))
    throw GameError(source.origin + ": " + error.describe());
  clear_fields_set_by(&tree, out, true);
  out.MergeFrom(*own);
  keep_last_note_per_field(out);
}

}  // namespace

void parse_ruleset_file(const RulesetSource& source, pb::Message& out) {
  parse_ruleset_file_at(source, out, 0);
}

RulesetHeader parse_ruleset_header(const RulesetSource& source) {
  RulesetHeader header;
  TextFormatError error;
  if (!parse_text_format(source.text, header, error, {true, nullptr})) {
    throw GameError(source.origin + ": " + error.describe());
  }
  if (header.game().empty()) throw GameError(source.origin + ": the ruleset names no game");
  if (header.name().empty()) throw GameError(source.origin + ": the ruleset has no name");
  return header;
}

std::string ruleset_fingerprint(const std::string& game, const pb::Message& rules) {
  std::string bytes;
  {
    pb::io::StringOutputStream stream(&bytes);
    pb::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    rules.SerializeToCodedStream(&coded);
  }
  const std::string data = game + '\0' + bytes;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH64(data.data(), data.size(), 0)));
  return hex;
}

std::vector<std::string> leaf_field_paths(const pb::Descriptor& rules_type) {
  std::vector<std::string> out;
  collect_leaves(rules_type, "", out);
  return out;
}

std::string field_value_text(const pb::Message& rules, const std::string& path) {
  const pb::Message* owner = nullptr;
  const pb::FieldDescriptor* f = resolve(rules, path, &owner);
  if (!f) throw GameError("no rules field '" + path + "'");
  if (!f->is_repeated()) return scalar_text(*owner, f, -1);
  std::string out = "[";
  const int n = owner->GetReflection()->FieldSize(*owner, f);
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + scalar_text(*owner, f, i);
  return out + "]";
}

std::vector<std::string> note_problems(const pb::Message& rules,
                                       const pb::RepeatedPtrField<FieldNote>& notes) {
  std::vector<std::string> problems;
  const std::vector<std::string> leaves = leaf_field_paths(*rules.GetDescriptor());
  const std::set<std::string> leaf_set(leaves.begin(), leaves.end());
  std::map<std::string, int> seen;
  for (const FieldNote& note : notes) {
    if (!leaf_set.count(note.field()))
      problems.push_back("note for unknown field '" + note.field() + "'");
    if (++seen[note.field()] == 2) problems.push_back("two notes for '" + note.field() + "'");
    if (!valid_source(note.source()))
      problems.push_back("note for '" + note.field() + "' has source '" + note.source() +
                         "' (want \"seed NNN\" or \"guessed\")");
    if (note.description().empty())
      problems.push_back("note for '" + note.field() + "' has no description");
  }
  for (const std::string& leaf : leaves) {
    if (!seen.count(leaf))
      problems.push_back("field '" + leaf + "' has no note (source and description)");
  }
  return problems;
}

std::string rules_markdown(const pb::Message& ruleset, const std::string& fingerprint) {
  RulesetHeader header;
  header.ParseFromString(ruleset.SerializeAsString());  // same field numbers by design
  const pb::FieldDescriptor* rules_field = ruleset.GetDescriptor()->FindFieldByName("rules");
  const pb::Message& rules = ruleset.GetReflection()->GetMessage(ruleset, rules_field);
  std::map<std::string, const FieldNote*> note_of;
  for (const FieldNote& n : header.notes()) note_of[n.field()] = &n;

  auto cell = [](std::string s) {
    std::string out;
    for (char c : s) out += (c == '|') ? std::string("\\|") : std::string(1, c);
    return out;
  };
  std::ostringstream md;
  md << "<!-- Generated by `pincer rules --rules " << header.name()
     << " --markdown` from configs/rulesets/" << header.name()
     << ".textproto; do not edit. scripts/gen-docs.sh regenerates it. -->\n\n";
  md << "# " << header.title() << "\n\n";
  md << header.summary() << "\n\n";
  md << "- Ruleset: `" << header.name() << "`\n";
  md << "- Game: `" << header.game() << "`\n";
  if (!header.base().empty())
    md << "- Base: `" << header.base() << "` (this file changes some of its fields)\n";
  md << "- Fingerprint: `" << fingerprint << "`\n\n";
  md << "## Every rule\n\n| field | value | source | meaning |\n| --- | --- | --- | --- |\n";
  std::vector<const FieldNote*> guessed;
  for (const std::string& path : leaf_field_paths(*rules.GetDescriptor())) {
    const FieldNote* note = note_of.count(path) ? note_of[path] : nullptr;
    md << "| `" << path << "` | `" << cell(field_value_text(rules, path)) << "` | "
       << (note ? note->source() : "MISSING") << " | " << (note ? cell(note->description()) : "")
       << " |\n";
    if (note && note->source() == "guessed") guessed.push_back(note);
  }
  md << "\n## The guessed fields (" << guessed.size() << ")\n\n"
     << "No source states these; the value was chosen so that the engine can run. They are the "
        "ones to argue with.\n\n";
  for (const FieldNote* note : guessed) {
    md << "- `" << note->field() << "` = `" << field_value_text(rules, note->field())
       << "`: " << note->description() << "\n";
  }
  return md.str();
}

}  // namespace pincer
