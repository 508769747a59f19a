// safetensors.cpp: copies real weights from a local .safetensors file into a
// model. The format: an 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}},
// then the raw tensor bytes. The file is mapped, not read, so loading adds
// no second copy of the weights to the process. The header is parsed with
// jansson (duplicate names refused, nesting bounded) and every entry is
// checked against the data section before any byte of it is touched.
#include <fcntl.h>
#include <jansson.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstring>
#include <memory>
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

// Hugging Face's parameter names, as this model registers them.
std::string local_name(std::string name)
{
    if (name == "lm_head.weight") return "lm_head";
    if (name.rfind("model.", 0) == 0) name = name.substr(6);
    for (const char *part : {"self_attn.", "mlp."}) {
        size_t at = name.find(part);
        if (at != std::string::npos) name.erase(at, strlen(part));
    }
    return name;
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
    mapped_file file(path);
    problem_at at{path};
    size_t data_start;
    auto entries = read_header(at, file.bytes(), file.size, &data_start);
    const char *data = file.bytes() + data_start;
    auto params = m->net->named_parameters();
    size_t copied = 0;
    torch::NoGradGuard no_grad;
    for (const auto &e : entries) {
        std::string local = local_name(e.name);
        if (local == "lm_head" && m->net->config.tie_embeddings) continue;
        torch::Tensor *param = params.find(local);
        if (!param) at.fail("no model parameter for tensor " + e.name);
        copy_entry(at, *param, e, data);
        copied++;
    }
    size_t adapters = 0;
    for (auto &p : params) adapters += p.key().find("lora_") != std::string::npos;
    if (copied + adapters != params.size())
        at.fail("holds " + std::to_string(copied) + " of the model's " + std::to_string(params.size() - adapters) +
                " weights");
    PF_GUARD_END
}
