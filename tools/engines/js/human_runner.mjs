// Runs @vladmandic/human (TF.js, wasm backend) offline on one RGB image.
//
//   node human_runner.mjs <object|body> <width> <height>  < raw RGB bytes (width*height*3)
//
// Prints one JSON object on stdout: {"object": [...]} (CenterNet, COCO-80) or
// {"body": [...]} (MoveNet-Lightning, 17 COCO keypoints). Python decodes the image
// (any format Pillow reads), so this script needs no image codecs.
// HUGGINGGPT_NODE_DIR (default: this script's folder) is where node_modules lives.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [mode, width, height] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
if (!['object', 'body'].includes(mode) || !(width > 0) || !(height > 0)) {
  process.stderr.write('usage: node human_runner.mjs <object|body> <width> <height> < rgb\n');
  process.exit(2);
}
const root = path.resolve(process.env.HUGGINGGPT_NODE_DIR || path.dirname(new URL(import.meta.url).pathname));
const modules = path.join(root, 'node_modules');
const require = createRequire(path.join(root, 'package.json'));

// Node's fetch cannot read file:// URLs; models load from disk and the network stays off.
globalThis.fetch = async (url) => {
  const u = typeof url === 'string' ? url : url.url;
  if (u.startsWith('file://')) return new Response(fs.readFileSync(decodeURIComponent(u.slice(7))), { status: 200 });
  throw new Error(`network disabled: ${u}`);
};

const wasmDir = path.join(modules, '@tensorflow/tfjs-backend-wasm/dist') + '/';
require('@tensorflow/tfjs-backend-wasm').setWasmPaths(wasmDir);
// The package's `exports` map hides the wasm build from bare specifiers; load it by path.
const { Human } = require(path.join(modules, '@vladmandic/human/dist/human.node-wasm.js'));

const human = new Human({
  backend: 'wasm',
  wasmPath: wasmDir,
  debug: false,
  cacheSensitivity: 0, // otherwise a second image can get the first one's cached result
  filter: { enabled: false },
  modelBasePath: 'file://' + path.join(modules, '@vladmandic/human/models') + '/',
  object: { enabled: mode === 'object', modelPath: 'centernet.json', minConfidence: 0.2, maxDetected: 20 },
  body: { enabled: mode === 'body', modelPath: 'movenet-lightning.json', minConfidence: 0.1, maxDetected: 1 },
  face: { enabled: false },
  hand: { enabled: false },
  segmentation: { enabled: false },
  gesture: { enabled: false },
});

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const rgb = Buffer.concat(chunks);
if (rgb.length !== width * height * 3) {
  process.stderr.write(`expected ${width * height * 3} bytes of RGB, got ${rgb.length}\n`);
  process.exit(2);
}

await human.load();
const tensor = human.tf.tensor3d(new Uint8Array(rgb), [height, width, 3], 'int32');
const result = await human.detect(tensor);
human.tf.dispose(tensor);

const round = (v) => Math.round(v * 1000) / 1000;
const out = mode === 'object'
  ? { object: result.object.map((o) => ({ label: o.label, score: round(o.score), box: o.box.map(round) })) }
  : { body: result.body.map((b) => ({
      score: round(b.score),
      box: b.box.map(round),
      keypoints: b.keypoints.map((k) => ({ part: k.part, score: round(k.score), x: round(k.position[0]), y: round(k.position[1]) })),
    })) };
process.stdout.write(JSON.stringify(out) + '\n');
