// safetensors.cpp: copies real weights from a local .safetensors file into a
// model. The format: an 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}},
// then the raw tensor bytes. The file is mapped, not read, so loading adds
// no second copy of the weights to the process.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstring>
#include <map>
#include "guard.hpp"
#include "model.hpp"

namespace {

struct header_entry {
    std::string dtype;
    std::vector<int64_t> shape;
    int64_t begin = 0, end = 0;
};

// Just enough JSON for a safetensors header: objects, arrays, strings and
// integers; anything else is an error, not a guess.
struct header_parser {
    const char *p, *end;
    [[noreturn]] void fail(const std::string &what)
    {
        throw std::runtime_error("safetensors header: " + what);
    }
    void space() { while (p < end && strchr(" \t\r\n", *p)) p++; }
    void expect(char c)
    {
        space();
        if (p >= end || *p != c) fail(std::string("expected '") + c + "'");
        p++;
    }
    bool next_is(char c) { space(); return p < end && *p == c; }
    std::string string()
    {
        expect('"');
        std::string s;
        while (p < end && *p != '"') {
            if (*p == '\\') p++;
            if (p < end) s += *p++;
        }
        expect('"');
        return s;
    }
    int64_t integer()
    {
        space();
        char *stop;
        long long v = strtoll(p, &stop, 10);
        if (stop == p) fail("expected an integer");
        p = stop;
        return v;
    }
    std::vector<int64_t> integers()
    {
        std::vector<int64_t> v;
        expect('[');
        while (!next_is(']')) {
            v.push_back(integer());
            if (next_is(',')) p++;
        }
        expect(']');
        return v;
    }
    void skip_string_map()
    {
        expect('{');
        while (!next_is('}')) {
            string(); expect(':'); string();
            if (next_is(',')) p++;
        }
        expect('}');
    }
    header_entry entry()
    {
        header_entry e;
        expect('{');
        while (!next_is('}')) {
            std::string key = string();
            expect(':');
            if (key == "dtype") e.dtype = string();
            else if (key == "shape") e.shape = integers();
            else if (key == "data_offsets") {
                auto o = integers();
                if (o.size() != 2) fail("data_offsets needs two numbers");
                e.begin = o[0]; e.end = o[1];
            } else fail("unexpected key " + key);
            if (next_is(',')) p++;
        }
        expect('}');
        return e;
    }
    std::map<std::string, header_entry> entries()
    {
        std::map<std::string, header_entry> all;
        expect('{');
        while (!next_is('}')) {
            std::string name = string();
            expect(':');
            if (name == "__metadata__") skip_string_map();
            else all[name] = entry();
            if (next_is(',')) p++;
        }
        expect('}');
        return all;
    }
};

torch::Dtype dtype_of(const std::string &name)
{
    static const std::map<std::string, torch::Dtype> known = {
        {"F32", torch::kFloat}, {"F16", torch::kHalf}, {"BF16", torch::kBFloat16},
        {"F64", torch::kDouble}, {"I64", torch::kLong}, {"I32", torch::kInt}};
    auto it = known.find(name);
    if (it == known.end())
        throw std::runtime_error("safetensors: unsupported dtype " + name);
    return it->second;
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
        int fd = open(path, O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            if (fd >= 0) close(fd);
            throw std::runtime_error(std::string(path) + ": " + strerror(errno));
        }
        size = (size_t)st.st_size;
        data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (data == MAP_FAILED)
            throw std::runtime_error(std::string(path) + ": mmap: " + strerror(errno));
    }
    ~mapped_file() { if (data != MAP_FAILED) munmap(data, size); }
};

void copy_entry(torch::Tensor &param, const header_entry &e, const char *bytes,
                const std::string &name)
{
    std::vector<int64_t> shape = param.sizes().vec();
    if (e.shape != shape)
        throw std::runtime_error("safetensors: " + name + " has a different shape than the model's");
    torch::Tensor src = torch::from_blob((void *)bytes, e.shape, dtype_of(e.dtype));
    if (src.nbytes() != (size_t)(e.end - e.begin))
        throw std::runtime_error("safetensors: " + name + " has the wrong byte count");
    param.copy_(src.to(param.dtype()));
}

} // namespace

extern "C" pf_status pf_model_load_safetensors(pf_model *m, const char *path)
{
    PF_GUARD_BEGIN
    mapped_file file(path);
    const char *base = static_cast<const char *>(file.data);
    uint64_t header_len = 0;
    if (file.size < 8) throw std::runtime_error(std::string(path) + ": too short for safetensors");
    memcpy(&header_len, base, 8);
    if (header_len > file.size - 8) throw std::runtime_error(std::string(path) + ": header length past end of file");
    header_parser parser{base + 8, base + 8 + header_len};
    auto entries = parser.entries();
    const char *data = base + 8 + header_len;
    auto params = m->net->named_parameters();
    size_t copied = 0;
    torch::NoGradGuard no_grad;
    for (auto &[name, e] : entries) {
        std::string local = local_name(name);
        if (local == "lm_head" && m->net->config.tie_embeddings) continue;
        torch::Tensor *param = params.find(local);
        if (!param) throw std::runtime_error(std::string(path) + ": no model parameter for tensor " + name);
        if (e.end < e.begin || (uint64_t)e.end > file.size - 8 - header_len)
            throw std::runtime_error(std::string(path) + ": " + name + " lies outside the file");
        copy_entry(*param, e, data + e.begin, name);
        copied++;
    }
    size_t adapters = 0;
    for (auto &p : params) adapters += p.key().find("lora_") != std::string::npos;
    if (copied + adapters != params.size())
        throw std::runtime_error(std::string(path) + ": holds " + std::to_string(copied) + " of the model's " +
                                 std::to_string(params.size() - adapters) + " weights");
    PF_GUARD_END
}
