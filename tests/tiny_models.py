"""Tiny random chat models built in the test run (no downloads): real code paths, garbage text."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n"
    "{% if enable_thinking is defined and enable_thinking is false %}<think>\n\n</think>\n\n{% endif %}{% endif %}"
)
_TEXT = ("The quick brown fox jumps over the lazy dog. Search engines answer questions about history, "
         "science, cities and people. {\"answer\": \"yes\"} [\"no\", \"unknown\"] 0123456789 ") * 20


def build_tiny_qwen3(folder: Path, head_dim: int = 16) -> Path:
    """A 2-layer Qwen3 with a byte-level BPE tokenizer trained here and a ChatML template."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>"]
    raw = Tokenizer(models.BPE())
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    raw.train_from_iterator([_TEXT], trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                        additional_special_tokens=["<|im_start|>"])
    tokenizer.chat_template = CHATML
    config = Qwen3Config(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, head_dim=head_dim,
                         max_position_embeddings=512, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=True)
    import torch

    torch.manual_seed(0)
    model = Qwen3ForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


# One conversion per test process (~20-40 s), shared by every test that needs the default model's folder.
# The session's cache folder (tests/conftest.py), so the default model is converted once per session.
MODELS_CACHE = Path(os.environ.get("CTSBENCH_CACHE_DIR") or tempfile.mkdtemp(prefix="ctsbench-test-models-"))


def packaged_smollm2() -> Path:
    """The default model's HF folder, converted once per test process under ``MODELS_CACHE``."""
    from cts_dataset.models.default_model import ensure_converted

    return ensure_converted(MODELS_CACHE)
