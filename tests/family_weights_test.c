/* Hugging Face's tensor names and shapes, written out here by hand from
 * transformers' modeling files (not from peakfit's layout), load into each
 * family's model: a file of zeros under those names gives every logit 0,
 * so the loss is exactly ln(vocab), and a missing or misnamed tensor is an
 * error. GPT-2's names come without "transformer.", as in its Hub
 * checkpoint, with the attention-mask buffers that checkpoint carries.
 * A sharded checkpoint (model.safetensors.index.json and two shards) loads
 * the same, and a wrong index is refused with a message naming it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "shim/peakfit_torch.h"
#include "models/config_json.h"
#include "tests/check.h"

struct tensor { char name[96]; long rows, cols; /* cols 0: a vector */ };

/* h 64, intermediate 96, 4 heads of 16, 2 kv heads, 2 layers, vocab 128 */
#define H 64
#define M 96
#define V 128
#define Q (4 * 16)
#define KV (2 * 16)

struct family_case {
    const char *model_type, *json;
    const char *layer_prefix; /* "%d" for the layer */
    struct { const char *name; long rows, cols; } top[4], layer[16];
};

static const struct family_case cases[] = {
    {"qwen2", "{\"model_type\": \"qwen2\", \"hidden_size\": 64, \"intermediate_size\": 96, \"num_attention_heads\": 4, "
              "\"num_key_value_heads\": 2, \"num_hidden_layers\": 2, \"vocab_size\": 128, \"tie_word_embeddings\": true}",
     "model.layers.%d.", {{"model.embed_tokens.weight", V, H}, {"model.norm.weight", H, 0}},
     {{"self_attn.q_proj.weight", Q, H}, {"self_attn.q_proj.bias", Q, 0}, {"self_attn.k_proj.weight", KV, H},
      {"self_attn.k_proj.bias", KV, 0}, {"self_attn.v_proj.weight", KV, H}, {"self_attn.v_proj.bias", KV, 0},
      {"self_attn.o_proj.weight", H, Q}, {"mlp.gate_proj.weight", M, H}, {"mlp.up_proj.weight", M, H},
      {"mlp.down_proj.weight", H, M}, {"input_layernorm.weight", H, 0}, {"post_attention_layernorm.weight", H, 0}}},
    {"qwen3", "{\"model_type\": \"qwen3\", \"hidden_size\": 64, \"intermediate_size\": 96, \"num_attention_heads\": 4, "
              "\"num_key_value_heads\": 2, \"num_hidden_layers\": 2, \"vocab_size\": 128, \"head_dim\": 16}",
     "model.layers.%d.", {{"model.embed_tokens.weight", V, H}, {"model.norm.weight", H, 0}, {"lm_head.weight", V, H}},
     {{"self_attn.q_proj.weight", Q, H}, {"self_attn.k_proj.weight", KV, H}, {"self_attn.v_proj.weight", KV, H},
      {"self_attn.o_proj.weight", H, Q}, {"self_attn.q_norm.weight", 16, 0}, {"self_attn.k_norm.weight", 16, 0},
      {"mlp.gate_proj.weight", M, H}, {"mlp.up_proj.weight", M, H}, {"mlp.down_proj.weight", H, M},
      {"input_layernorm.weight", H, 0}, {"post_attention_layernorm.weight", H, 0}}},
    {"gemma2", "{\"model_type\": \"gemma2\", \"hidden_size\": 64, \"intermediate_size\": 96, \"num_attention_heads\": 4, "
               "\"num_key_value_heads\": 2, \"num_hidden_layers\": 2, \"vocab_size\": 128, \"head_dim\": 16}",
     "model.layers.%d.", {{"model.embed_tokens.weight", V, H}, {"model.norm.weight", H, 0}},
     {{"self_attn.q_proj.weight", Q, H}, {"self_attn.k_proj.weight", KV, H}, {"self_attn.v_proj.weight", KV, H},
      {"self_attn.o_proj.weight", H, Q}, {"mlp.gate_proj.weight", M, H}, {"mlp.up_proj.weight", M, H},
      {"mlp.down_proj.weight", H, M}, {"input_layernorm.weight", H, 0}, {"post_attention_layernorm.weight", H, 0},
      {"pre_feedforward_layernorm.weight", H, 0}, {"post_feedforward_layernorm.weight", H, 0}}},
    {"phi3", "{\"model_type\": \"phi3\", \"hidden_size\": 64, \"intermediate_size\": 96, \"num_attention_heads\": 4, "
             "\"num_key_value_heads\": 2, \"num_hidden_layers\": 2, \"vocab_size\": 128}",
     "model.layers.%d.", {{"model.embed_tokens.weight", V, H}, {"model.norm.weight", H, 0}, {"lm_head.weight", V, H}},
     {{"self_attn.qkv_proj.weight", Q + 2 * KV, H}, {"self_attn.o_proj.weight", H, Q},
      {"mlp.gate_up_proj.weight", 2 * M, H}, {"mlp.down_proj.weight", H, M}, {"input_layernorm.weight", H, 0},
      {"post_attention_layernorm.weight", H, 0}}},
    {"gpt2", "{\"model_type\": \"gpt2\", \"n_embd\": 64, \"n_head\": 4, \"n_layer\": 2, \"n_inner\": 96, "
             "\"n_positions\": 32, \"vocab_size\": 128}",
     "h.%d.", {{"wte.weight", V, H}, {"wpe.weight", 32, H}, {"ln_f.weight", H, 0}, {"ln_f.bias", H, 0}},
     {{"ln_1.weight", H, 0}, {"ln_1.bias", H, 0}, {"attn.bias", 1, 32}, {"attn.c_attn.weight", H, 3 * H},
      {"attn.c_attn.bias", 3 * H, 0}, {"attn.c_proj.weight", H, H}, {"attn.c_proj.bias", H, 0},
      {"ln_2.weight", H, 0}, {"ln_2.bias", H, 0}, {"mlp.c_fc.weight", H, M}, {"mlp.c_fc.bias", M, 0},
      {"mlp.c_proj.weight", M, H}, {"mlp.c_proj.bias", H, 0}}},
};

static int case_tensors(const struct family_case *fc, struct tensor *t)
{
    int n = 0;
    for (int i = 0; i < 4 && fc->top[i].name; i++)
        t[n++] = (struct tensor){"", fc->top[i].rows, fc->top[i].cols}, strcpy(t[n - 1].name, fc->top[i].name);
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < 16 && fc->layer[i].name; i++) {
            int at = snprintf(t[n].name, sizeof t[n].name, fc->layer_prefix, l);
            snprintf(t[n].name + at, sizeof t[n].name - (size_t)at, "%s", fc->layer[i].name);
            t[n].rows = fc->layer[i].rows;
            t[n++].cols = fc->layer[i].cols;
        }
    return n;
}

/* Writes tensors [from, to) of t as zeros in F32. */
static void write_file(const char *path, const struct tensor *t, int from, int to)
{
    static char header[1 << 16];
    size_t used = (size_t)snprintf(header, sizeof header, "{\"__metadata__\":{\"format\":\"pt\"}");
    long offset = 0;
    for (int i = from; i < to; i++) {
        long bytes = 4 * t[i].rows * (t[i].cols ? t[i].cols : 1);
        char shape[64];
        if (t[i].cols) snprintf(shape, sizeof shape, "[%ld,%ld]", t[i].rows, t[i].cols);
        else snprintf(shape, sizeof shape, "[%ld]", t[i].rows);
        used += (size_t)snprintf(header + used, sizeof header - used,
                                 ",\"%s\":{\"dtype\":\"F32\",\"shape\":%s,\"data_offsets\":[%ld,%ld]}", t[i].name,
                                 shape, offset, offset + bytes);
        offset += bytes;
    }
    used += (size_t)snprintf(header + used, sizeof header - used, "}");
    FILE *f = fopen(path, "wb");
    unsigned long long len = used;
    fwrite(&len, 8, 1, f);
    fwrite(header, 1, used, f);
    for (long i = 0; i < offset; i++) fputc(0, f);
    fclose(f);
}

/* An index putting tensors [0, split) in shard a and the rest in shard b;
 * extra is added to the weight_map's text as it is. */
static void write_index(const char *path, const struct tensor *t, int n, int split, const char *a, const char *b,
                        const char *extra)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "{\"metadata\": {\"total_size\": 0}, \"weight_map\": {");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\"%s\": \"%s\"", i ? ", " : "", t[i].name, i < split ? a : b);
    fprintf(f, "%s}}\n", extra);
    fclose(f);
}

/* The loss with the weights at path (the model built from json), or the
 * error: PF_OK and *loss, else the status with pf_last_error(). */
static pf_status load_and_loss(const char *json, const char *path, double *loss)
{
    struct config_json parsed;
    char err[256];
    if (config_json_parse("config", json, strlen(json), &parsed, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return PF_ERR_ARG;
    }
    pf_train_options o = {.technique = PF_TECH_FULL, .learning_rate = 1e-4};
    pf_model *m;
    double norm;
    if (pf_model_new(&parsed.config, &o, 3, "cpu", &m) != PF_OK)
        return PF_ERR;
    pf_status st = pf_model_load_safetensors(m, path);
    if (st == PF_OK)
        st = pf_model_loss_and_grad_norm(m, 2, 16, 5, loss, &norm);
    pf_model_free(m);
    return st;
}

static void expect_error(const char *json, const char *path, const char *message, const char *what)
{
    double loss;
    CHECK(load_and_loss(json, path, &loss) == PF_ERR && strcmp(pf_last_error(), message) == 0,
          "%s: got \"%s\", expected \"%s\"", what, pf_last_error(), message);
}

static void sharded(const char *dir, const struct family_case *fc, const struct tensor *t, int n)
{
    char index[256], a[256], b[256], msg[512];
    double loss = 0;
    snprintf(index, sizeof index, "%s/model.safetensors.index.json", dir);
    snprintf(a, sizeof a, "%s/model-00001-of-00002.safetensors", dir);
    snprintf(b, sizeof b, "%s/model-00002-of-00002.safetensors", dir);
    write_file(a, t, 0, n / 2);
    write_file(b, t, n / 2, n);
    write_index(index, t, n, n / 2, "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "");
    CHECK(load_and_loss(fc->json, index, &loss) == PF_OK, "%s sharded: %s", fc->model_type, pf_last_error());
    CHECK(fabs(loss - log((double)V)) < 1e-5, "%s sharded: loss %.7f, not ln(vocab)", fc->model_type, loss);

    write_index(index, t, n, n / 2 + 1, "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "");
    snprintf(msg, sizeof msg, "%s: tensor %s: the index's weight_map puts it in model-00001-of-00002.safetensors", b,
             t[n / 2].name);
    expect_error(fc->json, index, msg, "tensor in the other shard");
    write_index(index, t, n - 1, n / 2, "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "");
    snprintf(msg, sizeof msg, "%s: tensor %s: is not in the index's weight_map", b, t[n - 1].name);
    expect_error(fc->json, index, msg, "tensor not in the index");
    write_index(index, t, n, n / 2, "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors",
                ", \"extra.weight\": \"model-00002-of-00002.safetensors\"");
    snprintf(msg, sizeof msg, "%s: weight_map: tensor extra.weight: not in shard model-00002-of-00002.safetensors", index);
    expect_error(fc->json, index, msg, "index names a tensor no shard has");
    write_index(index, t, n, n / 2, "model-00001-of-00002.safetensors", "../model-00002-of-00002.safetensors", "");
    snprintf(msg, sizeof msg, "%s: weight_map: tensor %s: the shard must be a file name in the index's folder", index,
             t[n / 2].name);
    expect_error(fc->json, index, msg, "shard outside the folder");
    write_index(index, t, n, n / 2, "model-00001-of-00002.safetensors", "absent.safetensors", "");
    snprintf(msg, sizeof msg, "%s/absent.safetensors: No such file or directory", dir);
    expect_error(fc->json, index, msg, "absent shard");
    FILE *f = fopen(index, "w");
    fputs("{\"weight_map\": [1, 2]}\n", f);
    fclose(f);
    snprintf(msg, sizeof msg, "%s: weight_map must be an object mapping tensor names to shard files", index);
    expect_error(fc->json, index, msg, "weight_map not an object");
    unlink(a), unlink(b), unlink(index);
}

int main(void)
{
    char dir[] = "/tmp/peakfit-families-XXXXXX", path[256];
    static struct tensor t[64];
    CHECK(pf_init(1) == PF_OK && mkdtemp(dir), "init");
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct family_case *fc = &cases[i];
        int n = case_tensors(fc, t);
        double loss = 0;
        write_file(path, t, 0, n);
        CHECK(load_and_loss(fc->json, path, &loss) == PF_OK, "%s: %s", fc->model_type, pf_last_error());
        CHECK(fabs(loss - log((double)V)) < 1e-5, "%s: loss %.7f, not ln(vocab)", fc->model_type, loss);
        /* One tensor fewer: the model says which count it holds. */
        write_file(path, t, 0, n - 1);
        CHECK(load_and_loss(fc->json, path, &loss) == PF_ERR && strstr(pf_last_error(), " of the model's "),
              "%s missing a tensor: %s", fc->model_type, pf_last_error());
        if (strcmp(fc->model_type, "gpt2") == 0)
            sharded(dir, fc, t, n);
    }
    unlink(path);
    rmdir(dir);
    CHECK_DONE();
}
