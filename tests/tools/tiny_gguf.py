#!/usr/bin/env python3
"""Write a tiny qwen2 GGUF model for the tests against a real llama-server.

    tiny_gguf.py VOCAB.gguf OUT.gguf [--mode words|special]

Test code only.  The tokenizer (every tokenizer.* key: Qwen's 151,936
tokens, its merges, its chat tokens and chat template) is copied byte for
byte from VOCAB.gguf, a vocab-only file of llama.cpp's models/ folder; the
weights are small and made up, written by hand in GGUF v3 (no numpy, no
gguf package).  Two layers, 64 wide, two heads of 32 (a q8_0 KV cache needs
a head size that is a multiple of 32), a 128-wide feed-forward, about 40 MB
in all, the large tensors in F16.

What the model says is steered, not learnt: every token embedding has a
constant first component, which dominates the last hidden state after the
RMS norm, and the output matrix weights that component

  words    +4 on a few hundred ordinary word tokens ("Ġ" and 3-8 lower-case
           letters), -4 on the special tokens: the answer is a stream of
           English-looking words that never stops on its own (the tests bound
           it with max_tokens), and a chat parser sees text only; the
           double quote gets +4.3, one token in about eight, so that a
           string of an answer under a JSON schema ends soon;
  special  as words, but +4 on the special tokens that are not end of turn
           (<|im_start|>, <|fim_prefix|>, <tool_call>, ...) as well, meant to
           make a chat parser meet them mid-answer (the server tried so far
           drops them from the content instead; no test uses this mode yet).

The same arguments write the same bytes (a fixed seed).
"""
import random
import re
import struct
import sys

N_EMBD = 64
N_HEAD = 2
N_HEAD_KV = 2
N_FF = 128
N_LAYER = 2
N_CTX_TRAIN = 4096
ALIGN = 32
F32, F16 = 0, 1

# GGUF metadata value types: fixed sizes, 8 string, 9 array.
SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


class Reader:
    def __init__(self, data):
        self.d = data
        self.o = 0

    def u32(self):
        v = struct.unpack_from("<I", self.d, self.o)[0]
        self.o += 4
        return v

    def u64(self):
        v = struct.unpack_from("<Q", self.d, self.o)[0]
        self.o += 8
        return v

    def string(self):
        n = self.u64()
        s = self.d[self.o:self.o + n]
        self.o += n
        return s

    def skip_value(self, t):
        if t == 8:
            self.string()
        elif t == 9:
            et = self.u32()
            n = self.u64()
            if et in SIZES:
                self.o += n * SIZES[et]
            else:
                for _ in range(n):
                    self.skip_value(et)
        else:
            self.o += SIZES[t]

    def value(self, t):
        start = self.o
        self.skip_value(t)
        return self.d[start:self.o]


def read_vocab(path):
    """The raw tokenizer.* entries of a GGUF, and its token strings."""
    r = Reader(open(path, "rb").read())
    if r.d[:4] != b"GGUF":
        sys.exit(f"tiny_gguf: {path} is not a GGUF file")
    r.o = 4
    if r.u32() != 3:
        sys.exit(f"tiny_gguf: {path} is not GGUF version 3")
    r.u64()  # tensors: a vocab-only file has none
    nkv = r.u64()
    raw = []
    tokens = None
    for _ in range(nkv):
        kstart = r.o
        key = r.string().decode()
        t = r.u32()
        vstart = r.o
        r.skip_value(t)
        if key.startswith("tokenizer."):
            raw.append(r.d[kstart:r.o])
        if key == "tokenizer.ggml.tokens":
            sub = Reader(r.d)
            sub.o = vstart + 4
            n = sub.u64()
            tokens = [sub.string().decode("utf-8", "replace") for _ in range(n)]
    if tokens is None:
        sys.exit(f"tiny_gguf: {path} has no tokenizer.ggml.tokens")
    return raw, tokens


def gstr(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def kv_u32(k, v):
    return gstr(k) + struct.pack("<II", 4, v)


def kv_f32(k, v):
    return gstr(k) + struct.pack("<If", 6, v)


def kv_str(k, v):
    return gstr(k) + struct.pack("<I", 8) + gstr(v)


def pack(vals, typ):
    return struct.pack("<%d%s" % (len(vals), "e" if typ == F16 else "f"), *vals)


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--mode"):
        sys.exit("usage: tiny_gguf.py VOCAB.gguf OUT.gguf [--mode words|special]")
    mode = argv[4] if len(argv) == 5 else "words"
    if mode not in ("words", "special"):
        sys.exit("tiny_gguf: --mode is words or special")
    raw, tokens = read_vocab(argv[1])
    n_vocab = len(tokens)
    rng = random.Random(37)

    word = re.compile("^\u0120[a-z]{3,8}$")
    words = [i for i, t in enumerate(tokens[:30000]) if word.match(t)][:400]
    special = [i for i, t in enumerate(tokens) if t.startswith("<") and t.endswith(">") and i >= 151643]
    end_of_turn = {"<|endoftext|>", "<|im_end|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>"}
    loud = set(words)
    if mode == "special":
        loud |= {i for i in special if tokens[i] not in end_of_turn}
    quiet = set(special) - loud

    def noise(n, scale):
        return [rng.uniform(-scale, scale) for _ in range(n)]

    # Rows drawn from small pools, so that 151,936 of them cost little time.
    pool = 256
    embd_rows = [pack([1.0] + noise(N_EMBD - 1, 0.1), F16) for _ in range(pool)]
    out_rows = {w: [pack([w] + noise(N_EMBD - 1, 0.1), F16) for _ in range(pool)] for w in (0.0, 4.0, 4.3, -4.0)}

    def pick(i):
        return (i * 2654435761 >> 7) % pool

    embd = b"".join(embd_rows[pick(i)] for i in range(n_vocab))
    quote = tokens.index('"')

    def weight(i):
        return 4.3 if i == quote else 4.0 if i in loud else -4.0 if i in quiet else 0.0

    out = b"".join(out_rows[weight(i)][pick(i + 1)] for i in range(n_vocab))

    tensors = [("token_embd.weight", [N_EMBD, n_vocab], F16, embd),
               ("output_norm.weight", [N_EMBD], F32, pack([1.0] * N_EMBD, F32)),
               ("output.weight", [N_EMBD, n_vocab], F16, out)]
    for il in range(N_LAYER):
        b = f"blk.{il}."
        tensors += [
            (b + "attn_norm.weight", [N_EMBD], F32, pack([1.0] * N_EMBD, F32)),
            (b + "attn_q.weight", [N_EMBD, N_EMBD], F32, pack(noise(N_EMBD * N_EMBD, 0.02), F32)),
            (b + "attn_k.weight", [N_EMBD, N_EMBD], F32, pack(noise(N_EMBD * N_EMBD, 0.02), F32)),
            (b + "attn_v.weight", [N_EMBD, N_EMBD], F32, pack(noise(N_EMBD * N_EMBD, 0.02), F32)),
            (b + "attn_output.weight", [N_EMBD, N_EMBD], F32, pack(noise(N_EMBD * N_EMBD, 0.02), F32)),
            (b + "ffn_norm.weight", [N_EMBD], F32, pack([1.0] * N_EMBD, F32)),
            (b + "ffn_gate.weight", [N_EMBD, N_FF], F32, pack(noise(N_EMBD * N_FF, 0.02), F32)),
            (b + "ffn_up.weight", [N_EMBD, N_FF], F32, pack(noise(N_EMBD * N_FF, 0.02), F32)),
            (b + "ffn_down.weight", [N_FF, N_EMBD], F32, pack(noise(N_FF * N_EMBD, 0.02), F32)),
        ]

    kvs = [kv_str("general.architecture", "qwen2"),
           kv_str("general.name", "sworn-tiny-" + mode),
           kv_u32("general.alignment", ALIGN),
           kv_u32("general.file_type", 1),
           kv_u32("qwen2.block_count", N_LAYER),
           kv_u32("qwen2.context_length", N_CTX_TRAIN),
           kv_u32("qwen2.embedding_length", N_EMBD),
           kv_u32("qwen2.feed_forward_length", N_FF),
           kv_u32("qwen2.attention.head_count", N_HEAD),
           kv_u32("qwen2.attention.head_count_kv", N_HEAD_KV),
           kv_f32("qwen2.rope.freq_base", 1000000.0),
           kv_f32("qwen2.attention.layer_norm_rms_epsilon", 1e-6)] + raw

    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs)
    offset = 0
    datas = []
    for name, dims, typ, data in tensors:
        pad = (-offset) % ALIGN
        datas.append(b"\0" * pad + data)
        offset += pad
        head += gstr(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
        head += struct.pack("<IQ", typ, offset)
        offset += len(data)
    head += b"\0" * ((-len(head)) % ALIGN)
    with open(argv[2], "wb") as f:
        f.write(head)
        for d in datas:
            f.write(d)


if __name__ == "__main__":
    main(sys.argv)
