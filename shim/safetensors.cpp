// safetensors.cpp: copies real weights from a local .safetensors file into a
// model. The format: an 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}},
// then the raw tensor bytes. The file is mapped, not read, so loading adds
// no second copy of the weights to the process. The header is parsed with
// jansson (duplicate names refused, nesting bounded) and every entry is
// checked against the data section before any byte of it is touched. A
// sharded checkpoint is loaded through its index (model.safetensors.index.json),
// shard by shard, each mapped only while it is copied.
#include <fcntl.h>
#include <jansson.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include "guard.hpp"
#include "model.hpp"

namespace {

// The safetensors format's own bound on its header.
constexpr uint64_t header_max_bytes = 100000000;

struct dtype_info {
    const char *name;
    torch::Dtype dtype;
    uint64_t bytes;
};

const dtype_info dtypes[] = {
    {"F64", torch::kDouble, 8}, {"F32", torch::kFloat, 4}, {"F16", torch::kHalf, 2},
    {"BF16", torch::kBFloat16, 2}, {"I64", torch::kLong, 8}, {"I32", torch::kInt, 4},
    {"I16", torch::kShort, 2}, {"I8", torch::kChar, 1}, {"U8", torch::kByte, 1},
    {"BOOL", torch::kBool, 1}};

struct header_entry {
    std::string name;
    const dtype_info *dtype;
    std::vector<int64_t> shape;
    uint64_t begin, end;
};

// Every message names the file and, where there is one, the tensor.
struct problem_at {
    std::string file;
    [[noreturn]] void fail(const std::string &what) const { throw std::runtime_error(file + ": " + what); }
    [[noreturn]] void fail(const std::string &tensor, const std::string &what) const
    {
        fail("tensor " + tensor + ": " + what);
    }
};

std::string dtype_names()
{
    std::string all;
    for (const auto &d : dtypes) all += (all.empty() ? "" : ", ") + std::string(d.name);
    return all;
}

const dtype_info *dtype_of(const problem_at &at, const std::string &name, const json_t *v)
{
    if (!json_is_string(v)) at.fail(name, "dtype must be a string");
    for (const auto &d : dtypes)
        if (strcmp(json_string_value(v), d.name) == 0) return &d;
    at.fail(name, "unknown dtype \"" + std::string(json_string_value(v)) + "\" (dtypes: " + dtype_names() + ")");
}

// A JSON array of non-negative integers, of count items when count >= 0.
std::vector<int64_t> naturals(const problem_at &at, const std::string &name, const char *key, const json_t *v,
                              int count)
{
    std::string expected = count < 0 ? "a list of whole numbers >= 0" : "two whole numbers >= 0";
    if (!json_is_array(v) || (count >= 0 && json_array_size(v) != (size_t)count))
        at.fail(name, std::string(key) + " must be " + expected);
    std::vector<int64_t> out;
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *item = json_array_get(v, i);
        if (!json_is_integer(item) || json_integer_value(item) < 0)
            at.fail(name, std::string(key) + " must be " + expected + ", not " +
                          (json_is_integer(item) ? std::to_string(json_integer_value(item)) : "a non-integer"));
        out.push_back(json_integer_value(item));
    }
    return out;
}

header_entry read_entry(const problem_at &at, const char *name, const json_t *v, uint64_t data_size)
{
    header_entry e{name, nullptr, {}, 0, 0};
    if (!json_is_object(v) || json_object_size(v) != 3 || !json_object_get(v, "dtype") ||
        !json_object_get(v, "shape") || !json_object_get(v, "data_offsets"))
        at.fail(name, "must be an object of dtype, shape and data_offsets");
    e.dtype = dtype_of(at, name, json_object_get(v, "dtype"));
    e.shape = naturals(at, name, "shape", json_object_get(v, "shape"), -1);
    auto offsets = naturals(at, name, "data_offsets", json_object_get(v, "data_offsets"), 2);
    e.begin = (uint64_t)offsets[0];
    e.end = (uint64_t)offsets[1];
    std::string range = "data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "]";
    if (e.begin > e.end || e.end > data_size)
        at.fail(name, range + " lie outside the data section (" + std::to_string(data_size) + " bytes)");
    uint64_t bytes = e.dtype->bytes;
    bool overflow = false;
    for (int64_t d : e.shape) overflow = overflow || __builtin_mul_overflow(bytes, (uint64_t)d, &bytes);
    if (overflow || bytes != e.end - e.begin)
        at.fail(name, range + " hold " + std::to_string(e.end - e.begin) + " bytes, but its dtype and shape need " +
                          (overflow ? std::string("more than 2^64") : std::to_string(bytes)));
    return e;
}

void check_metadata(const problem_at &at, const json_t *v)
{
    const char *key;
    const json_t *value;
    bool ok = json_is_object(v);
    json_object_foreach(const_cast<json_t *>(v), key, value) ok = ok && json_is_string(value);
    if (!ok) at.fail("__metadata__ must map names to strings");
}

// Two tensors may not share a byte (empty tensors share none).
void check_overlaps(const problem_at &at, std::vector<header_entry> entries)
{
    std::sort(entries.begin(), entries.end(),
              [](const header_entry &a, const header_entry &b) { return a.begin < b.begin; });
    const header_entry *last = nullptr;
    for (const auto &e : entries) {
        if (e.begin == e.end) continue;
        if (last && e.begin < last->end)
            at.fail("tensors " + last->name + " and " + e.name + " overlap (bytes " + std::to_string(e.begin) +
                    " to " + std::to_string(std::min(e.end, last->end)) + ")");
        if (!last || e.end > last->end) last = &e;
    }
}

struct json_deleter {
    void operator()(json_t *j) const { json_decref(j); }
};

// Parses and checks the whole header of a file of n bytes. Returns the
// entries and the offset of the data section.
std::vector<header_entry> read_header(const problem_at &at, const char *bytes, size_t n, size_t *data_start)
{
    uint64_t header_len = 0;
    if (n < 8) at.fail("too short for safetensors (" + std::to_string(n) + " bytes)");
    for (int i = 7; i >= 0; i--) header_len = header_len << 8 | (unsigned char)bytes[i];
    if (header_len > n - 8)
        at.fail("header length " + std::to_string(header_len) + " is past the end of the file (" +
                std::to_string(n) + " bytes)");
    if (header_len > header_max_bytes)
        at.fail("header length " + std::to_string(header_len) + " is over safetensors' limit of " +
                std::to_string(header_max_bytes) + " bytes");
    json_error_t why;
    std::unique_ptr<json_t, json_deleter> root(json_loadb(bytes + 8, header_len, JSON_REJECT_DUPLICATES, &why));
    if (!root) at.fail("header:" + std::to_string(why.line) + ": " + why.text);
    if (!json_is_object(root.get())) at.fail("header is not a JSON object");
    *data_start = 8 + header_len;
    uint64_t data_size = n - *data_start;
    std::vector<header_entry> entries;
    const char *name;
    json_t *value;
    json_object_foreach(root.get(), name, value) {
        if (strcmp(name, "__metadata__") == 0) check_metadata(at, value);
        else entries.push_back(read_entry(at, name, value, data_size));
    }
    check_overlaps(at, entries);
    return entries;
}

// What a checkpoint may hold that is no parameter: rotary tables and old
// GPT-2 checkpoints' attention masks.
bool is_buffer(const std::string &name)
{
    for (const char *tail : {"rotary_emb.inv_freq", ".attn.bias", ".attn.masked_bias"})
        if (name.size() > strlen(tail) && name.compare(name.size() - strlen(tail), strlen(tail), tail) == 0)
            return true;
    return false;
}

// The model parameter a file's tensor stands for: the model registers
// Hugging Face's names, so the name itself; checkpoints saved from the base
// model (GPT2Model, LlamaModel) lack the "transformer." or "model." prefix.
torch::Tensor *parameter_for(torch::OrderedDict<std::string, torch::Tensor> &params, const pf_model_config &c,
                             const std::string &name)
{
    if (torch::Tensor *p = params.find(name)) return p;
    std::string embed = pf_model_names_of(&c).embed;
    return params.find(embed.substr(0, embed.find('.') + 1) + name);
}
struct mapped_file {
    void *data = MAP_FAILED;
    size_t size = 0;
    explicit mapped_file(const char *path)
    {
        // O_NONBLOCK: a FIFO given as the weights file must not hang the open.
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            if (fd >= 0) close(fd);
            throw std::runtime_error(std::string(path) + ": " + strerror(errno));
        }
        if (!S_ISREG(st.st_mode)) {
            close(fd);
            throw std::runtime_error(std::string(path) + ": not a regular file");
        }
        size = (size_t)st.st_size;
        if (size == 0) { // mmap refuses a zero length; read_header says why
            close(fd);
            return;
        }
        data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (data == MAP_FAILED)
            throw std::runtime_error(std::string(path) + ": mmap: " + strerror(errno));
    }
    const char *bytes() const { return data == MAP_FAILED ? "" : static_cast<const char *>(data); }
    ~mapped_file() { if (data != MAP_FAILED) munmap(data, size); }
};

void copy_entry(const problem_at &at, torch::Tensor &param, const header_entry &e, const char *data)
{
    if (e.shape != param.sizes().vec())
        at.fail(e.name, "has a different shape than the model's");
    torch::Tensor src = torch::from_blob((void *)(data + e.begin), e.shape, e.dtype->dtype);
    param.copy_(src.to(param.dtype()));
}

// One safetensors file's tensors copied into the model's parameters; the
// tensors it names are added to loaded. A shard of an index must hold the
// tensors the index's weight_map puts in it (owner: tensor -> file name).
void load_file(pf_model &m, torch::OrderedDict<std::string, torch::Tensor> &params, const std::string &path,
               const std::map<std::string, std::string> *owner, const std::string &file,
               std::set<std::string> &loaded)
{
    mapped_file mapped(path.c_str());
    problem_at at{path};
    size_t data_start;
    auto entries = read_header(at, mapped.bytes(), mapped.size, &data_start);
    const char *data = mapped.bytes() + data_start;
    for (const auto &e : entries) {
        if (owner) {
            auto it = owner->find(e.name);
            if (it == owner->end()) at.fail(e.name, "is not in the index's weight_map");
            if (it->second != file) at.fail(e.name, "the index's weight_map puts it in " + it->second);
        }
        if (is_buffer(e.name) || (e.name == "lm_head.weight" && m.net->config.tie_embeddings)) continue;
        torch::Tensor *param = parameter_for(params, m.net->config, e.name);
        if (!param) at.fail("no model parameter for tensor " + e.name);
        copy_entry(at, *param, e, data);
        loaded.insert(e.name);
    }
}

// A sharded checkpoint's model.safetensors.index.json: {"metadata": {...},
// "weight_map": {tensor: shard file in the same folder}}. Returns the
// shards in order of first mention, and each tensor's shard in owner.
std::vector<std::string> read_index(const std::string &path, std::map<std::string, std::string> &owner)
{
    problem_at at{path};
    size_t n = 0;
    mapped_file mapped(path.c_str());
    n = mapped.size;
    json_error_t why;
    std::unique_ptr<json_t, json_deleter> root(json_loadb(mapped.bytes(), n, JSON_REJECT_DUPLICATES, &why));
    if (!root) throw std::runtime_error(path + ":" + std::to_string(why.line) + ": " + why.text);
    const json_t *map = json_is_object(root.get()) ? json_object_get(root.get(), "weight_map") : nullptr;
    if (!map || !json_is_object(map) || json_object_size(map) == 0)
        at.fail("weight_map must be an object mapping tensor names to shard files");
    std::vector<std::string> shards;
    const char *name;
    json_t *value;
    json_object_foreach(const_cast<json_t *>(map), name, value) {
        std::string file = json_is_string(value) ? json_string_value(value) : "";
        if (file.empty() || file.find('/') != std::string::npos || file == "." || file == "..")
            at.fail("weight_map: tensor " + std::string(name) + ": the shard must be a file name in the index's folder");
        owner[name] = file;
        if (std::find(shards.begin(), shards.end(), file) == shards.end()) shards.push_back(file);
    }
    return shards;
}

bool ends_with(const std::string &s, const char *tail)
{
    return s.size() >= strlen(tail) && s.compare(s.size() - strlen(tail), strlen(tail), tail) == 0;
}

} // namespace

extern "C" pf_status pf_safetensors_check(const char *name, const void *bytes, size_t n)
{
    PF_GUARD_BEGIN
    size_t data_start;
    read_header(problem_at{name}, static_cast<const char *>(bytes), n, &data_start);
    PF_GUARD_END
}

extern "C" pf_status pf_model_load_safetensors(pf_model *m, const char *path)
{
    PF_GUARD_BEGIN
    auto params = m->net->named_parameters();
    std::set<std::string> loaded;
    torch::NoGradGuard no_grad;
    if (!ends_with(path, ".json")) {
        load_file(*m, params, path, nullptr, "", loaded);
    } else {
        std::map<std::string, std::string> owner;
        std::string p = path, folder = p.find('/') == std::string::npos ? "" : p.substr(0, p.rfind('/') + 1);
        for (const auto &shard : read_index(p, owner))
            load_file(*m, params, folder + shard, &owner, shard, loaded);
        for (const auto &entry : owner)
            if (!loaded.count(entry.first) && !is_buffer(entry.first) &&
                !(entry.first == "lm_head.weight" && m->net->config.tie_embeddings))
                problem_at{p}.fail("weight_map: tensor " + entry.first + ": not in shard " + entry.second);
    }
    size_t adapters = 0;
    for (auto &p : params) adapters += p.key().find("lora_") != std::string::npos;
    if (loaded.size() + adapters != params.size())
        problem_at{path}.fail("holds " + std::to_string(loaded.size()) + " of the model's " +
                              std::to_string(params.size() - adapters) + " weights");
    PF_GUARD_END
}
