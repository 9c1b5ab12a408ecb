// A whisper.cpp model file of a real size's shapes with random weights (no model can be downloaded in
// tests or CI). It follows whisper_model_load in whisper.cpp 1.9.1's src/whisper.cpp: magic, hparams,
// mel filters, vocabulary, then tensors (dims, name length, type, ne[], name, data). It transcribes
// nonsense, but loads, runs and costs what a real model of that size costs.
import { randomFillSync } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import path from "node:path";

export type ModelShape = { state: number; heads: number; layers: number };

/** The real models' shapes (OpenAI's whisper, multilingual). */
export const MODEL_SHAPES = {
  tiny: { state: 384, heads: 6, layers: 4 },
  base: { state: 512, heads: 8, layers: 6 },
  small: { state: 768, heads: 12, layers: 12 },
} satisfies Record<string, ModelShape>;

const GGML_FILE_MAGIC = 0x67676d6c;
const N_VOCAB = 51865; // multilingual
const N_AUDIO_CTX = 1500;
const N_TEXT_CTX = 448;
const N_MELS = 80;
const N_FFT = 201;
// The tokens a multilingual file lists (ids 0–50256); the loader adds the special ones after them.
const FILE_TOKENS = 50257;
const F32 = 0;
const F16 = 1;

type Tensor = { name: string; ne: number[]; type: typeof F32 | typeof F16; fill: "one" | "zero" | "random" };

function tensorsOf({ state, layers }: ModelShape): Tensor[] {
  const big = (name: string, ne: number[]): Tensor => ({ name, ne, type: F16, fill: "random" });
  const f32 = (name: string, ne: number[], fill: Tensor["fill"] = "random"): Tensor => ({
    name,
    ne,
    type: F32,
    fill,
  });
  const norm = (prefix: string): Tensor[] => [
    f32(`${prefix}.weight`, [state], "one"),
    f32(`${prefix}.bias`, [state], "zero"),
  ];
  const attention = (prefix: string): Tensor[] => [
    big(`${prefix}.query.weight`, [state, state]),
    f32(`${prefix}.query.bias`, [state]),
    big(`${prefix}.key.weight`, [state, state]),
    big(`${prefix}.value.weight`, [state, state]),
    f32(`${prefix}.value.bias`, [state]),
    big(`${prefix}.out.weight`, [state, state]),
    f32(`${prefix}.out.bias`, [state]),
  ];
  const mlp = (prefix: string): Tensor[] => [
    ...norm(`${prefix}.mlp_ln`),
    big(`${prefix}.mlp.0.weight`, [state, 4 * state]),
    f32(`${prefix}.mlp.0.bias`, [4 * state]),
    big(`${prefix}.mlp.2.weight`, [4 * state, state]),
    f32(`${prefix}.mlp.2.bias`, [state]),
  ];
  const encoder: Tensor[] = [
    f32("encoder.positional_embedding", [state, N_AUDIO_CTX]),
    big("encoder.conv1.weight", [3, N_MELS, state]),
    f32("encoder.conv1.bias", [1, state]),
    big("encoder.conv2.weight", [3, state, state]),
    f32("encoder.conv2.bias", [1, state]),
    ...norm("encoder.ln_post"),
  ];
  for (let i = 0; i < layers; i++) {
    encoder.push(...mlp(`encoder.blocks.${i}`), ...norm(`encoder.blocks.${i}.attn_ln`));
    encoder.push(...attention(`encoder.blocks.${i}.attn`));
  }
  const decoder: Tensor[] = [
    f32("decoder.positional_embedding", [state, N_TEXT_CTX]),
    big("decoder.token_embedding.weight", [state, N_VOCAB]),
    ...norm("decoder.ln"),
  ];
  for (let i = 0; i < layers; i++) {
    decoder.push(...mlp(`decoder.blocks.${i}`), ...norm(`decoder.blocks.${i}.attn_ln`));
    decoder.push(...attention(`decoder.blocks.${i}.attn`));
    decoder.push(...norm(`decoder.blocks.${i}.cross_attn_ln`), ...attention(`decoder.blocks.${i}.cross_attn`));
  }
  return [...encoder, ...decoder];
}

const int32s = (...values: number[]) => Buffer.from(new Int32Array(values).buffer);

/** Random half floats of magnitude 2^-7 .. 2^-6 with random signs: small enough never to overflow. */
function randomHalves(count: number): Buffer {
  const halves = new Uint16Array(count);
  randomFillSync(halves);
  for (let i = 0; i < count; i++) halves[i] = (halves[i] & 0x83ff) | (8 << 10);
  return Buffer.from(halves.buffer);
}

function f32Values(count: number, fill: Tensor["fill"]): Buffer {
  const values = new Float32Array(count);
  if (fill === "one") values.fill(1);
  else if (fill === "random") for (let i = 0; i < count; i++) values[i] = (Math.random() - 0.5) * 0.02;
  return Buffer.from(values.buffer);
}

/** Writes the model to `file` (through a temporary name, so a half-written file is never used). */
export function writeWhisperModel(file: string, shape: ModelShape) {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const fd = openSync(partial, "w");
  const write = (buffer: Buffer) => writeSync(fd, buffer);
  try {
    write(int32s(GGML_FILE_MAGIC));
    // n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx, n_text_state,
    // n_text_head, n_text_layer, n_mels, ftype (1: mostly F16)
    write(int32s(N_VOCAB, N_AUDIO_CTX, shape.state, shape.heads, shape.layers));
    write(int32s(N_TEXT_CTX, shape.state, shape.heads, shape.layers, N_MELS, 1));
    write(int32s(N_MELS, N_FFT));
    const filters = new Float32Array(N_MELS * N_FFT);
    for (let i = 0; i < filters.length; i++) filters[i] = Math.random() * 0.01;
    write(Buffer.from(filters.buffer));
    write(int32s(FILE_TOKENS));
    for (let id = 0; id < FILE_TOKENS; id++) {
      // Words of a few letters, so what the engine "hears" reads as text (ASCII: valid JSON and UTF-8).
      // The decoder looks up " " (GPT-2's token 220) to suppress a blank start.
      const text = id === 220 ? " " : id === 50256 ? "" : ` ${id.toString(36)}`;
      const word = Buffer.from(text, "utf8");
      write(int32s(word.length));
      if (word.length) write(word);
    }
    for (const tensor of tensorsOf(shape)) {
      const name = Buffer.from(tensor.name, "utf8");
      write(int32s(tensor.ne.length, name.length, tensor.type, ...tensor.ne));
      write(name);
      const count = tensor.ne.reduce((a, b) => a * b, 1);
      write(tensor.type === F16 ? randomHalves(count) : f32Values(count, tensor.fill));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
}

/** The generated model of `size` under `dir`, written once (later runs reuse it). */
export function generatedModel(size: keyof typeof MODEL_SHAPES, dir = path.resolve(".cache/speech/models")) {
  const file = path.join(dir, `generated-${size}-f16.bin`);
  if (!existsSync(file)) writeWhisperModel(file, MODEL_SHAPES[size]);
  return file;
}
