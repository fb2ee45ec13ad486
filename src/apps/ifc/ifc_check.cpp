// Reads an IFC file with IFC++ (Debian's libifcplusplus, generated from the IFC4 EXPRESS schema) and
// reports, as JSON: the schema named in the header, every entity that IFC4 does not define, every
// entity whose argument count differs from its IFC4 attribute count, every reference IFC++ could not
// bind to an attribute of the schema's type, the count of each entity type, and for each product the
// closed solids its geometry builds to (carve), their volume and their box in world coordinates.
// Usage: ifc-check FILE.ifc
#include <ifcpp/IFC4/EntityFactory.h>
#include <ifcpp/geometry/Carve/GeometryConverter.h>
#include <ifcpp/model/AttributeObject.h>
#include <ifcpp/model/BuildingModel.h>
#include <ifcpp/reader/ReaderSTEP.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

static std::vector<std::string> problems;

static std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r' || c == '\t') { out += ' '; continue; }
    out += c;
  }
  return out + "\"";
}

struct Statement {
  int id;
  std::string name;
  std::vector<std::string> args;
};

// Splits the DATA section into statements and each statement's top-level arguments.
static std::vector<Statement> statements(const std::string& text) {
  std::vector<Statement> out;
  size_t start = text.find("DATA;");
  size_t stop = text.find("ENDSEC;", start);
  if (start == std::string::npos || stop == std::string::npos) { problems.push_back("no DATA section"); return out; }
  std::string current;
  bool in_string = false;
  for (size_t i = start + 5; i < stop; ++i) {
    char c = text[i];
    if (c == '\'') in_string = !in_string;
    if (!in_string && c == ';') {
      size_t eq = current.find('=');
      size_t open = current.find('(');
      size_t hash = current.find('#');
      if (hash != std::string::npos && eq != std::string::npos && open != std::string::npos) {
        Statement s;
        s.id = std::stoi(current.substr(hash + 1, eq - hash - 1));
        s.name = current.substr(eq + 1, open - eq - 1);
        size_t close = current.rfind(')');
        std::string body = current.substr(open + 1, close - open - 1);
        int depth = 0;
        bool quote = false;
        std::string arg;
        for (char b : body) {
          if (b == '\'') quote = !quote;
          if (!quote && b == '(') depth++;
          if (!quote && b == ')') depth--;
          if (!quote && depth == 0 && b == ',') { s.args.push_back(arg); arg.clear(); continue; }
          arg += b;
        }
        if (!body.empty()) s.args.push_back(arg);
        out.push_back(s);
      }
      current.clear();
      continue;
    }
    if (!in_string && (c == '\n' || c == '\r' || c == ' ') ) continue;
    current += c;
  }
  return out;
}

static void onMessage(void*, shared_ptr<StatusCallback::Message> m) {
  if (m->m_message_type == StatusCallback::MESSAGE_TYPE_PROGRESS_VALUE ||
      m->m_message_type == StatusCallback::MESSAGE_TYPE_PROGRESS_TEXT ||
      m->m_message_type == StatusCallback::MESSAGE_TYPE_GENERAL_MESSAGE) return;
  std::wstring w = m->m_message_text;
  problems.push_back("IFC++: " + std::string(w.begin(), w.end()));
}

static int references(const std::string& arg) {
  int n = 0;
  bool quote = false;
  for (char c : arg) { if (c == '\'') quote = !quote; if (!quote && c == '#') n++; }
  return n;
}

int main(int argc, char** argv) {
  if (argc < 2) { std::cerr << "usage: ifc-check FILE.ifc\n"; return 2; }
  std::ifstream in(argv[1]);
  if (!in) { std::cerr << "cannot read " << argv[1] << "\n"; return 2; }
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  std::string schema;
  size_t at = text.find("FILE_SCHEMA((");
  if (at != std::string::npos) { size_t a = text.find('\'', at), b = text.find('\'', a + 1); schema = text.substr(a + 1, b - a - 1); }

  std::vector<Statement> parsed = statements(text);
  std::map<int, const Statement*> by_id;
  for (const Statement& s : parsed) {
    by_id[s.id] = &s;
    BuildingEntity* probe = EntityFactory::createEntityObject(s.name);
    if (!probe) { problems.push_back("#" + std::to_string(s.id) + " " + s.name + " is not an IFC4 entity"); continue; }
    if (probe->getNumAttributes() != s.args.size()) {
      problems.push_back("#" + std::to_string(s.id) + " " + s.name + " has " + std::to_string(s.args.size()) +
                         " arguments; IFC4 defines " + std::to_string(probe->getNumAttributes()));
    }
    delete probe;
  }

  shared_ptr<BuildingModel> model(new BuildingModel());
  shared_ptr<ReaderSTEP> reader(new ReaderSTEP());
  reader->setMessageCallBack(nullptr, onMessage);
  reader->loadModelFromString(text, model);

  std::map<std::string, int> counts;
  for (auto& entry : model->getMapIfcEntities()) {
    shared_ptr<BuildingEntity> entity = entry.second;
    counts[entity->className()]++;
    auto found = by_id.find(entry.first);
    if (found == by_id.end()) continue;
    std::vector<std::pair<std::string, shared_ptr<BuildingObject> > > attributes;
    entity->getAttributes(attributes);
    const Statement& s = *found->second;
    for (size_t i = 0; i < attributes.size() && i < s.args.size(); ++i) {
      int refs = references(s.args[i]);
      if (refs == 0) continue;
      shared_ptr<BuildingObject> value = attributes[i].second;
      size_t bound = 0;
      if (auto list = dynamic_pointer_cast<AttributeObjectVector>(value)) bound = list->m_vec.size();
      else if (value) bound = 1;
      if ((int)bound != refs) {
        problems.push_back("#" + std::to_string(s.id) + " " + s.name + "." + attributes[i].first + ": " +
                           std::to_string(refs) + " reference(s), " + std::to_string(bound) +
                           " of the type IFC4 allows");
      }
    }
  }

  shared_ptr<GeometryConverter> geometry(new GeometryConverter(model));
  geometry->setMessageCallBack(nullptr, onMessage);
  geometry->convertGeometry();
  std::ostringstream products;
  bool first = true;
  for (auto& entry : geometry->getShapeInputData()) {
    shared_ptr<ProductShapeData> shape = entry.second;
    shared_ptr<IfcObjectDefinition> object = shape->m_ifc_object_definition.lock();
    if (!object) continue;
    int closed = 0, open = 0;
    double volume = 0;
    double low[3] = {1e300, 1e300, 1e300}, high[3] = {-1e300, -1e300, -1e300};
    carve::math::Matrix transform = shape->getTransform();
    for (auto& representation : shape->m_vec_representations) {
      for (auto& item : representation->m_vec_item_data) {
        closed += item->m_meshsets.size();
        open += item->m_meshsets_open.size();
        for (auto& meshset : item->m_meshsets) {
          for (auto* mesh : meshset->meshes) volume += std::abs(mesh->volume());
          for (auto& vertex : meshset->vertex_storage) {
            carve::geom::vector<3> world = transform * vertex.v;
            for (int k = 0; k < 3; ++k) {
              low[k] = std::min(low[k], world.v[k]);
              high[k] = std::max(high[k], world.v[k]);
            }
          }
        }
      }
    }
    if (closed + open == 0) continue;
    products << (first ? "" : ",") << "{\"id\":" << entry.first << ",\"type\":" << quoted(object->className())
             << ",\"closed\":" << closed << ",\"open\":" << open << ",\"volume\":" << volume
             << ",\"min\":[" << low[0] << "," << low[1] << "," << low[2] << "],\"max\":[" << high[0] << "," << high[1] << "," << high[2] << "]}";
    first = false;
  }

  std::cout << "{\"schema\":" << quoted(schema) << ",\"statements\":" << parsed.size() << ",\"counts\":{";
  first = true;
  for (auto& c : counts) { std::cout << (first ? "" : ",") << quoted(c.first) << ":" << c.second; first = false; }
  std::cout << "},\"problems\":[";
  for (size_t i = 0; i < problems.size(); ++i) std::cout << (i ? "," : "") << quoted(problems[i]);
  std::cout << "],\"products\":[" << products.str() << "]}\n";
  return 0;
}
