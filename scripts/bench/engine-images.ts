/**
 * Times the engine: `generateImages` at 512×512 and 1024×1024 with n=1 and n=4, and one 1024×1024
 * inpainting and variation. Prints median and fastest of 21 runs, plus the load average, because
 * other work on the machine moves the median a lot. Run: `npx tsx scripts/bench/engine-images.ts`.
 */
import { loadavg } from 'node:os';
import { decodeImageInput } from '../../src/server/domain/engine/images/decode.ts';
import { editImages } from '../../src/server/domain/engine/images/edit.ts';
import { generateImages } from '../../src/server/domain/engine/images/generate.ts';

const ROUNDS = 21;

async function measure(label: string, run: (round: number) => Promise<Buffer[]>): Promise<void> {
  await run(-1); // warm-up: JIT and sharp's first load
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    const images = await run(round);
    times.push(performance.now() - start);
    bytes = images.reduce((sum, png) => sum + png.length, 0) / images.length;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(ROUNDS / 2)]!;
  console.log(`${label.padEnd(32)} median ${median.toFixed(1).padStart(6)} ms   fastest ${times[0]!.toFixed(1).padStart(6)} ms   ${(bytes / 1024).toFixed(0).padStart(5)} KiB/PNG`);
}

console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (${ROUNDS} runs each)`);
for (const side of [512, 1024]) {
  for (const n of [1, 4]) {
    // A new prompt each round, so each run paints a different picture.
    await measure(`generate ${side}x${side} n=${n}`, (round) =>
      generateImages({ prompt: `bench ${round}`, width: side, height: side, n }));
  }
}
const [source, maskPng] = await generateImages({ prompt: 'bench source', width: 1024, height: 1024, n: 2 });
const image = await decodeImageInput(source!.toString('base64'), 'image');
const mask = await decodeImageInput(maskPng!.toString('base64'), 'mask');
await measure('edit 1024x1024 n=1 inpainting', (round) =>
  editImages({ prompt: `edit ${round}`, image, mask, width: 1024, height: 1024, n: 1 }));
await measure('edit 1024x1024 n=1 variation', (round) =>
  editImages({ prompt: `edit ${round}`, image, width: 1024, height: 1024, n: 1 }));
console.log(`load average after:  ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
