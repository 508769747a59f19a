/* Real weights from a safetensors file: a file of all-zero tensors, under
 * Hugging Face's names, makes every logit 0, so the loss is exactly
 * ln(vocab); a wrong shape, a missing tensor or a truncated file is an
 * error naming the problem. */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "shim/peakfit_torch.h"
#include "models/model_spec.h"
#include "tests/check.h"

struct tensor_spec {
    char name[80];
    long rows, cols; /* cols 0: a vector */
};

static int tiny_tensors(struct tensor_spec *t, const pf_model_config *c)
{
    int n = 0;
    long h = c->hidden_size, kv = c->num_kv_heads * (h / c->num_heads), m = c->intermediate_size;
    t[n++] = (struct tensor_spec){"model.embed_tokens.weight", c->vocab_size, h};
    for (int i = 0; i < c->num_layers; i++) {
        struct { const char *part; long rows, cols; } parts[] = {
            {"self_attn.q_proj.weight", h, h}, {"self_attn.k_proj.weight", kv, h},
            {"self_attn.v_proj.weight", kv, h}, {"self_attn.o_proj.weight", h, h},
            {"mlp.gate_proj.weight", m, h}, {"mlp.up_proj.weight", m, h}, {"mlp.down_proj.weight", h, m},
            {"input_layernorm.weight", h, 0}, {"post_attention_layernorm.weight", h, 0}};
        for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
            snprintf(t[n].name, sizeof t[n].name, "model.layers.%d.%s", i, parts[p].part);
            t[n].rows = parts[p].rows;
            t[n++].cols = parts[p].cols;
        }
    }
    t[n++] = (struct tensor_spec){"model.norm.weight", h, 0};
    return n;
}

/* Writes zeros for the tensors; the one at bad_shape_index (or none: -1)
 * gets one row too many, and the data is cut short by cut_bytes. */
static void write_file(const char *path, const struct tensor_spec *t, int n, long bad_shape_index, long cut_bytes)
{
    static char header[65536];
    size_t used = (size_t)snprintf(header, sizeof header, "{\"__metadata__\":{\"format\":\"pt\"}");
    long offset = 0;
    for (int i = 0; i < n; i++) {
        long rows = t[i].rows + (i == bad_shape_index);
        long count = rows * (t[i].cols ? t[i].cols : 1);
        char shape[64];
        if (t[i].cols) snprintf(shape, sizeof shape, "[%ld,%ld]", rows, t[i].cols);
        else snprintf(shape, sizeof shape, "[%ld]", rows);
        used += (size_t)snprintf(header + used, sizeof header - used,
                                 ",\"%s\":{\"dtype\":\"F32\",\"shape\":%s,\"data_offsets\":[%ld,%ld]}", t[i].name,
                                 shape, offset, offset + 4 * count);
        offset += 4 * count;
    }
    used += (size_t)snprintf(header + used, sizeof header - used, "}");
    FILE *f = fopen(path, "wb");
    unsigned long long len = used;
    fwrite(&len, 8, 1, f);
    fwrite(header, 1, used, f);
    static char zeros[1 << 16];
    for (long left = offset - cut_bytes; left > 0; left -= (long)sizeof zeros)
        fwrite(zeros, 1, left < (long)sizeof zeros ? (size_t)left : sizeof zeros, f);
    fclose(f);
}

static pf_status load_and_loss(const char *path, double *loss)
{
    pf_model_config c;
    char err[256];
    model_spec_resolve("tiny", &c, err, sizeof err);
    pf_train_options o = {.technique = PF_TECH_FULL, .learning_rate = 1e-4};
    pf_model *m;
    double norm;
    pf_model_new(&c, &o, 3, "cpu", &m);
    pf_status st = path ? pf_model_load_safetensors(m, path) : PF_OK;
    if (st == PF_OK)
        st = pf_model_loss_and_grad_norm(m, 2, 16, 5, loss, &norm);
    pf_model_free(m);
    return st;
}

int main(void)
{
    pf_model_config c;
    char err[256], path[] = "/tmp/peakfit-st-XXXXXX";
    struct tensor_spec t[64];
    CHECK(pf_init(1) == PF_OK && model_spec_resolve("tiny", &c, err, sizeof err) == 0, "init");
    int n = tiny_tensors(t, &c);
    close(mkstemp(path));
    double random_loss, zero_loss;
    CHECK(load_and_loss(NULL, &random_loss) == PF_OK, "random weights");
    write_file(path, t, n, -1, 0);
    CHECK(load_and_loss(path, &zero_loss) == PF_OK, "load: %s", pf_last_error());
    CHECK(fabs(zero_loss - log(8192.0)) < 1e-5, "zero weights give ln(vocab): %.7f vs %.7f", zero_loss, log(8192.0));
    CHECK(fabs(random_loss - zero_loss) > 1e-3, "the file's weights were used: %.7f", random_loss);

    write_file(path, t, n, 3, 0);
    CHECK(load_and_loss(path, &zero_loss) == PF_ERR &&
          strstr(pf_last_error(), "tensor model.layers.0.self_attn.v_proj.weight: has a different shape than the model's"), "shape: %s",
          pf_last_error());
    write_file(path, t, n - 1, -1, 0);
    CHECK(load_and_loss(path, &zero_loss) == PF_ERR && strstr(pf_last_error(), "holds 37 of the model's 38 weights"),
          "missing: %s", pf_last_error());
    write_file(path, t, n, -1, 1000);
    CHECK(load_and_loss(path, &zero_loss) == PF_ERR && strstr(pf_last_error(), "tensor model.norm.weight: data_offsets [20979712, 20980736] lie outside the data section (20979736 bytes)"),
          "truncated: %s", pf_last_error());
    unlink(path);
    CHECK(load_and_loss(path, &zero_loss) == PF_ERR && strstr(pf_last_error(), "No such file"), "absent: %s",
          pf_last_error());
    CHECK_DONE();
}
