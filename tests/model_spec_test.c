/* model_spec_load: a preset; a config.json given by a relative path (its
 * source is the canonical path, its hash FNV-1a of its bytes, its name the
 * folder holding it); the folder itself as the spec; _name_or_path's last
 * part as the name; and an error message always filled. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "models/model_spec.h"
#include "util/hash.h"
#include "tests/check.h"

static const char config[] = "{\"hidden_size\": 64, \"intermediate_size\": 128, \"num_attention_heads\": 4,\n"
                             " \"num_hidden_layers\": 2, \"vocab_size\": 256%s}\n";

static void write_config(const char *path, const char *extra)
{
    FILE *f = fopen(path, "w");
    fprintf(f, config, extra);
    fclose(f);
}

int main(void)
{
    static struct model_spec s;
    char err[1024], dir[] = "/tmp/peakfit-spec-XXXXXX", path[256], text[512], cwd[4096];
    CHECK(model_spec_load("tiny", &s, err, sizeof err) == 0 && strcmp(s.name, "tiny") == 0 &&
          strcmp(s.source, "tiny") == 0 && s.config_hash == 0 && s.config.hidden_size == 256, "preset");

    CHECK(mkdtemp(dir) != NULL, "temp dir");
    snprintf(path, sizeof path, "%s/Some-Model", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/Some-Model/config.json", dir);
    write_config(path, "");
    CHECK(getcwd(cwd, sizeof cwd) && chdir(dir) == 0, "chdir");
    CHECK(model_spec_load("./Some-Model/../Some-Model/config.json", &s, err, sizeof err) == 0, "load: %s", err);
    char *real = realpath(path, NULL);
    CHECK(real && strcmp(s.source, real) == 0, "source %s, expected %s", s.source, real);
    free(real);
    CHECK(strcmp(s.name, "Some-Model") == 0, "name %s", s.name);
    snprintf(text, sizeof text, config, "");
    CHECK(s.config_hash == hash_bytes(text, strlen(text), hash_start()), "hash %llx",
          (unsigned long long)s.config_hash);
    CHECK(s.config.num_kv_heads == 4 && s.config.tie_embeddings == 0 && s.config.rope_theta == 10000.0 &&
          s.config.rms_norm_eps == 1e-6, "Hugging Face's defaults for absent fields");
    uint64_t first_hash = s.config_hash;

    CHECK(model_spec_load("Some-Model/", &s, err, sizeof err) == 0 && strcmp(s.name, "Some-Model") == 0 &&
          s.config_hash == first_hash, "folder as the spec: %s", err);
    write_config("Some-Model/config.json", ", \"_name_or_path\": \"HuggingFaceTB/SmolLM2-135M\"");
    CHECK(model_spec_load("./Some-Model", &s, err, sizeof err) == 0 && strcmp(s.name, "SmolLM2-135M") == 0 &&
          s.config_hash != first_hash, "name from _name_or_path: %s", s.name);

    memset(err, 'x', sizeof err);
    CHECK(model_spec_load("/dev/null", &s, err, sizeof err) == -1 &&
          strcmp(err, "/dev/null: is a character device, not a regular file") == 0, "special file: %.80s", err);
    CHECK(chdir(cwd) == 0, "chdir back");
    unlink(path);
    snprintf(path, sizeof path, "%s/Some-Model", dir);
    rmdir(path);
    rmdir(dir);
    CHECK_DONE();
}
