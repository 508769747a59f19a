#!/usr/bin/env python3
"""bench/gpu/reference.py: PyTorch's own counters for the points peakfit measured.

For every ok cuda row of a peaks.csv, the same model (transformers'
LlamaForCausalLM from the same config, random weights), technique, batch,
seq_len, attention and number of AdamW steps, run under PyTorch, and
torch.cuda.max_memory_allocated / max_memory_reserved read as peakfit's
worker reads them: after CUDA and a cuBLAS handle are up (one small
matmul), the peaks are reset, then the model is built and stepped.

    python3 bench/gpu/reference.py PEAKS_CSV OUT_CSV [--foreach]

--foreach uses AdamW's default multi-tensor implementation on CUDA;
without it AdamW runs per parameter (foreach=False), as libtorch's C++
AdamW does, so both sides run the same optimizer. Points run one after
another in this process, the allocator emptied between them: allocated
bytes do not depend on what ran before; reserved bytes can.
"""
import csv
import gc
import json
import sys
import time

import torch

# peakfit's presets (models/model_spec.c): hidden, layers, heads, kv heads,
# intermediate, vocab, tied embeddings, rope theta, rms eps.
PRESETS = {
    "smollm2-135m": (576, 30, 9, 3, 1536, 49152, True, 100000.0, 1e-5),
    "tiny": (256, 4, 4, 2, 768, 8192, True, 10000.0, 1e-5),
}
LORA_NAMES = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj",
              "gate": "gate_proj", "up": "up_proj", "down": "down_proj"}
MIB = 1048576.0


def llama_config(source, attention):
    from transformers import LlamaConfig
    if source in PRESETS:
        h, layers, heads, kv, inter, vocab, tie, theta, eps = PRESETS[source]
        cfg = LlamaConfig(hidden_size=h, num_hidden_layers=layers, num_attention_heads=heads,
                          num_key_value_heads=kv, intermediate_size=inter, vocab_size=vocab,
                          tie_word_embeddings=tie, rope_theta=theta, rms_norm_eps=eps)
    else:
        with open(source) as f:
            cfg = LlamaConfig(**json.load(f))
    cfg.use_cache = False  # peakfit keeps no KV cache
    cfg._attn_implementation = attention
    return cfg


def build(row, device):
    from transformers import LlamaForCausalLM
    technique = row["technique"]
    cfg = llama_config(row["model_source"], row["attention"] or "sdpa")
    torch.manual_seed(int(row["seed"] or 0))
    if technique == "bf16":  # as peakfit: built and cast on the CPU, then moved
        model = LlamaForCausalLM(cfg).to(torch.bfloat16).to(device)
    else:  # built on the device: quicker, and the same fp32 tensors reach it
        with torch.device(device):
            model = LlamaForCausalLM(cfg)
    if technique.startswith("lora"):
        from peft import LoraConfig, get_peft_model
        targets = [LORA_NAMES[t] for t in row["lora_targets"].replace("+", ",").split(",") if t]
        model = get_peft_model(model, LoraConfig(r=int(row["lora_rank"]), lora_alpha=2 * int(row["lora_rank"]),
                                                 lora_dropout=0.0, target_modules=targets))
    if technique.endswith("+ckpt"):
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    return model


def step(model, optimizer, technique, batch, seq_len, vocab, device):
    ids = torch.randint(vocab, (batch, seq_len), device=device)
    if optimizer is None:
        with torch.no_grad():
            model(input_ids=ids)
        return
    if technique == "amp-bf16":
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(input_ids=ids, labels=ids).loss
    else:
        loss = model(input_ids=ids, labels=ids).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)


def measure(row, foreach):
    device = torch.device(row["device"])
    technique = row["technique"]
    torch.cuda.set_device(device)
    warm = torch.ones(64, 64, device=device)
    (warm @ warm).sum().item()  # context, cuBLAS handle and workspace, as peakfit's baseline
    del warm
    torch.cuda.synchronize(device)
    torch.cuda.reset_peak_memory_stats(device)
    t0 = time.time()
    model = build(row, device)
    training = technique != "inference"
    if training:
        model.train()
        params = [p for p in model.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(params, lr=1e-4, foreach=foreach)
    else:
        model.eval()
        optimizer = None
    vocab = model.config.vocab_size
    for _ in range(int(row["steps"])):
        step(model, optimizer, technique, int(row["batch"]), int(row["seq_len"]), vocab, device)
    torch.cuda.synchronize(device)
    result = (torch.cuda.max_memory_allocated(device) / MIB, torch.cuda.max_memory_reserved(device) / MIB,
              time.time() - t0)
    del model, optimizer
    gc.collect()
    torch.cuda.empty_cache()
    return result


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: reference.py PEAKS_CSV OUT_CSV [--foreach]")
    foreach = "--foreach" in argv[3:]
    with open(argv[1], newline="") as f:
        rows = [r for r in csv.DictReader(f)
                if r["status"] == "ok" and r["device"].startswith("cuda") and r["technique"] != "load"]
    fields = ["point_id", "technique", "batch", "seq_len", "attention", "foreach",
              "torch_allocated_peak_mib", "torch_reserved_peak_mib", "seconds", "error"]
    with open(argv[2], "w", newline="") as out:
        w = csv.DictWriter(out, fieldnames=fields)
        w.writeheader()
        for row in rows:
            rec = {k: row.get(k, "") for k in ("point_id", "technique", "batch", "seq_len", "attention")}
            rec["foreach"] = int(foreach)
            try:
                a, r, s = measure(row, foreach)
                rec.update(torch_allocated_peak_mib=f"{a:.3f}", torch_reserved_peak_mib=f"{r:.3f}",
                           seconds=f"{s:.2f}")
            except Exception as e:  # an OOM or a missing package is this point's result
                rec["error"] = f"{type(e).__name__}: {e}".replace("\n", " ")[:300]
                gc.collect()
                torch.cuda.empty_cache()
            w.writerow(rec)
            out.flush()
            print(f"reference: {rec['point_id']}: allocated {rec.get('torch_allocated_peak_mib', '')} MiB "
                  f"{rec['error']}", flush=True)
    print(f"reference: torch {torch.__version__}, {len(rows)} points, foreach={foreach}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
