#!/usr/bin/env python3
"""Check sworn's corrections exports the way the trainers load them.

    corrections_formats.py gguf OUT.gguf TEMPLATE.jinja
        write a header-only GGUF (no tensors) carrying TEMPLATE as its
        tokenizer.chat_template, for `sworn gguf --chat-template` to read;
        with TEMPLATE "-", one without a chat template

    corrections_formats.py check SCHEMAS.json EXPORTS_DIR NAME=TEMPLATE...
        EXPORTS_DIR holds FORMAT-KIND.jsonl for every format (trl, axolotl,
        llamafactory) and kind (sft, dpo).  Every line must validate against
        the schema FORMAT_KIND of SCHEMAS.json (python3-jsonschema); every
        format must carry the same conversations; and each line, put back
        into role/content messages as its trainer does, must render through
        every chat template (python3-jinja2, set up as transformers'
        apply_chat_template sets it up) without error, with the prompt
        rendered with add_generation_prompt a prefix of the prompt and its
        answer rendered whole (what a trainer needs to put the loss on the
        answer alone).  Before that, the checks are shown to fail on lines
        that are wrong.

Test code only.  Both modules are Debian 12 packages (python3-jsonschema,
python3-jinja2) that scripts/install-deps installs.
"""
import json
import os
import struct
import sys

FORMATS = ("trl", "axolotl", "llamafactory")
KINDS = ("sft", "dpo")
SHAREGPT_ROLES = {"human": "user", "gpt": "assistant"}
# What each test template's tokenizer calls its first token.
BOS = {"chatml": "", "llama3": "<|begin_of_text|>", "gemma": "<bos>"}


def gguf_str(s):
    b = s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def write_gguf(out, template):
    kvs = [("general.architecture", "llama"), ("general.name", "chat-template-test")]
    if template is not None:
        kvs.append(("tokenizer.chat_template", template))
    data = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs))
    for k, v in kvs:
        data += gguf_str(k) + struct.pack("<I", 8) + gguf_str(v)
    with open(out, "wb") as f:
        f.write(data)


def renderer(template):
    """The template compiled as transformers compiles a chat template."""
    from jinja2.exceptions import TemplateError
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    import jinja2.ext

    def raise_exception(message):
        raise TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent,
                          separators=separators, sort_keys=sort_keys)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    return env.from_string(template)


def conversations(fmt, kind, line):
    """(prompt messages, [answers]) of a line, as its trainer reads it."""
    if fmt == "trl":
        answers = line["completion"] if kind == "sft" else [line["chosen"], line["rejected"]]
        if kind == "dpo":
            answers = [a[0] for a in answers]
        return line["prompt"], list(answers)
    if fmt == "axolotl":
        if kind == "sft":
            return line["messages"][:-1], [line["messages"][-1]]
        return line["messages"], [line["chosen"], line["rejected"]]

    def msg(turn):
        return {"role": SHAREGPT_ROLES[turn["from"]], "content": turn["value"]}
    prompt = [{"role": "system", "content": line["system"]}] if "system" in line else []
    turns = line["conversations"]
    if kind == "sft":
        return prompt + [msg(t) for t in turns[:-1]], [msg(turns[-1])]
    return prompt + [msg(t) for t in turns], [msg(line["chosen"]), msg(line["rejected"])]


def render_problems(name, template, prompt, answers):
    """What goes wrong rendering prompt and each answer; [] when nothing."""
    from jinja2.exceptions import TemplateError
    bos, eos = BOS.get(name, ""), ""
    problems = []
    try:
        head = template.render(messages=prompt, add_generation_prompt=True,
                               bos_token=bos, eos_token=eos)
        for a in answers:
            whole = template.render(messages=prompt + [a], add_generation_prompt=False,
                                    bos_token=bos, eos_token=eos)
            if not whole.startswith(head):
                problems.append(f"{name}: the prompt with its generation prompt is not "
                                f"a prefix of the whole chat: {head!r} / {whole!r}")
            elif a["content"].strip() not in whole[len(head):]:
                problems.append(f"{name}: the answer is not after the prompt: {whole!r}")
        for m in prompt:
            if m["content"].strip() not in head:
                problems.append(f"{name}: the prompt lost a {m['role']} message: {head!r}")
    except TemplateError as e:
        problems.append(f"{name}: {e}")
    return problems


def validator(defs, name):
    import jsonschema
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$defs": defs, "$ref": "#/$defs/" + name}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check(schemas_path, exports, templates):
    failures = 0
    with open(schemas_path, encoding="utf-8") as f:
        defs = json.load(f)["$defs"]
    compiled = {}
    for spec in templates:
        name, path = spec.split("=", 1)
        with open(path, encoding="utf-8") as f:
            compiled[name] = renderer(f.read())
    if set(compiled) != set(BOS):
        sys.exit(f"corrections_formats: templates {sorted(compiled)}, expected {sorted(BOS)}")

    lines = {}
    for fmt in FORMATS:
        for kind in KINDS:
            path = os.path.join(exports, f"{fmt}-{kind}.jsonl")
            with open(path, encoding="utf-8") as f:
                lines[fmt, kind] = [json.loads(l) for l in f]

    # The checks fail where they should: a line in another trainer's
    # names, TRL's old whole-chat shape, a stray field, a user answer, two
    # user turns in a row under the strict template.
    trl_sft = lines["trl", "sft"][0]
    wrong = [
        ("trl_sft", lines["axolotl", "sft"][0]),
        ("trl_sft", {"messages": trl_sft["prompt"] + trl_sft["completion"],
                     "metadata": trl_sft["metadata"]}),
        ("trl_dpo", dict(lines["trl", "dpo"][0], chosen=lines["axolotl", "dpo"][0]["chosen"])),
        ("axolotl_dpo", dict(lines["axolotl", "dpo"][0], extra=1)),
        ("llamafactory_sft", dict(lines["llamafactory", "sft"][0],
                                  conversations=[{"from": "gpt", "value": "x"},
                                                 {"from": "human", "value": "y"}])),
        ("llamafactory_dpo", dict(lines["llamafactory", "dpo"][0],
                                  metadata=dict(trl_sft["metadata"], run=0))),
        ("trl_sft", dict(trl_sft, completion=[{"role": "user", "content": "x"}])),
    ]
    for name, line in wrong:
        if validator(defs, name).is_valid(line):
            print(f"FAIL: schema {name} accepts a wrong line: {json.dumps(line)[:200]}")
            failures += 1
    doubled = trl_sft["prompt"] + [{"role": "user", "content": "again"}]
    if not render_problems("gemma", compiled["gemma"], doubled, trl_sft["completion"]):
        print("FAIL: the gemma template renders two user turns in a row")
        failures += 1

    checked = 0
    for kind in KINDS:
        counts = {fmt: len(lines[fmt, kind]) for fmt in FORMATS}
        if len(set(counts.values())) != 1 or counts["trl"] == 0:
            print(f"FAIL: {kind}: line counts {counts}")
            failures += 1
            continue
        for fmt in FORMATS:
            v = validator(defs, f"{fmt}_{kind}")
            for i, line in enumerate(lines[fmt, kind]):
                for e in v.iter_errors(line):
                    print(f"FAIL: {fmt}-{kind}.jsonl line {i + 1}: {e.message} "
                          f"at {list(e.absolute_path)}")
                    failures += 1
        for i in range(counts["trl"]):
            convs = {fmt: conversations(fmt, kind, lines[fmt, kind][i]) for fmt in FORMATS}
            metas = {fmt: lines[fmt, kind][i]["metadata"] for fmt in FORMATS}
            if convs["axolotl"] != convs["trl"] or convs["llamafactory"] != convs["trl"]:
                print(f"FAIL: {kind} line {i + 1}: the formats differ: {convs}")
                failures += 1
            if metas["axolotl"] != metas["trl"] or metas["llamafactory"] != metas["trl"]:
                print(f"FAIL: {kind} line {i + 1}: the metadata differ: {metas}")
                failures += 1
            prompt, answers = convs["trl"]
            for name, template in compiled.items():
                for p in render_problems(name, template, prompt, answers):
                    print(f"FAIL: {kind} line {i + 1}: {p}")
                    failures += 1
                checked += 1
    print(f"corrections_formats: {checked} renderings over {len(compiled)} templates, "
          f"{failures} failure(s)")
    return failures


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "gguf":
        if sys.argv[3] == "-":
            write_gguf(sys.argv[2], None)
        else:
            with open(sys.argv[3], encoding="utf-8") as f:
                write_gguf(sys.argv[2], f.read())
        return 0
    if len(sys.argv) >= 5 and sys.argv[1] == "check":
        return 1 if check(sys.argv[2], sys.argv[3], sys.argv[4:]) else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
