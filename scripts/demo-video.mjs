// The demo seed's video (issue 20, item 10): a few seconds of an animated architectural
// rendering — a tower against a dusk sky, its windows lighting up floor by floor as the sun
// sets — drawn pixel by pixel into RGBA frames and encoded to H.264 MP4 in process by
// h264-mp4-encoder (WebAssembly; nothing downloaded), with the first frame as a PNG poster.
//
// Run once with `node scripts/demo-video.mjs`; the files it writes are committed under
// src/server/seed/assets/ and the seed reads them, so `npm start` (and production installs,
// which leave out dev dependencies) never needs the encoder.
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import HME from 'h264-mp4-encoder';

const WIDTH = 480;
const HEIGHT = 272;
const FPS = 24;
const SECONDS = 4;
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'server', 'seed', 'assets');

const lerp = (a, b, t) => a + (b - a) * t;
const mix = (c1, c2, t) => [lerp(c1[0], c2[0], t), lerp(c1[1], c2[1], t), lerp(c1[2], c2[2], t)];

/** One frame at time `t` (0..1) as RGBA bytes. */
function frame(t) {
  const px = new Uint8ClampedArray(WIDTH * HEIGHT * 4);
  const set = (x, y, [r, g, b]) => {
    if (x < 0 || y < 0 || x >= WIDTH || y >= HEIGHT) return;
    const i = (y * WIDTH + x) * 4;
    px[i] = r;
    px[i + 1] = g;
    px[i + 2] = b;
    px[i + 3] = 255;
  };
  const rect = (x0, y0, w, h, color) => {
    for (let y = Math.max(0, y0); y < Math.min(HEIGHT, y0 + h); y++)
      for (let x = Math.max(0, x0); x < Math.min(WIDTH, x0 + w); x++) set(x, y, color);
  };
  // Sky: day blue to dusk orange at the horizon, darkening as t grows.
  const top = mix([70, 130, 200], [25, 30, 70], t);
  const horizon = mix([250, 200, 140], [240, 110, 70], t);
  const ground = HEIGHT - 40;
  for (let y = 0; y < ground; y++) {
    const c = mix(top, horizon, y / ground);
    for (let x = 0; x < WIDTH; x++) set(x, y, c);
  }
  // The sun going down behind the skyline.
  const sunX = Math.round(lerp(90, 150, t));
  const sunY = Math.round(lerp(70, ground - 10, t));
  for (let y = -18; y <= 18; y++)
    for (let x = -18; x <= 18; x++)
      if (x * x + y * y <= 324) set(sunX + x, sunY + y, mix([255, 236, 160], [255, 150, 80], t));
  // Far skyline, then the ground.
  const far = mix([120, 130, 160], [50, 50, 80], t);
  for (let i = 0; i < 12; i++) {
    const w = 26 + ((i * 37) % 20);
    const h = 40 + ((i * 53) % 60);
    rect(i * 42 - 10, ground - h, w, h, far);
  }
  rect(0, ground, WIDTH, HEIGHT - ground, mix([90, 120, 80], [35, 45, 40], t));
  // The tower: a slow camera drift to the left, floors of windows that light up in turn.
  const drift = Math.round(lerp(0, -30, t));
  const towerX = 250 + drift;
  const towerW = 120;
  const floors = 16;
  const floorH = 12;
  const towerTop = ground - floors * floorH - 8;
  rect(towerX, towerTop, towerW, ground - towerTop, mix([200, 205, 215], [70, 75, 95], t));
  rect(towerX - 6, towerTop - 6, towerW + 12, 8, mix([160, 165, 180], [50, 55, 75], t));
  const lit = Math.floor(t * floors * 1.3);
  for (let f = 0; f < floors; f++) {
    for (let w = 0; w < 8; w++) {
      const on = floors - 1 - f < lit && (f * 7 + w * 3) % 5 !== 0;
      const glass = on ? [255, 214, 120] : mix([120, 160, 200], [40, 50, 80], t);
      rect(towerX + 8 + w * 14, towerTop + 6 + f * floorH, 9, 7, glass);
    }
  }
  // A lower neighbour with a terrace.
  rect(towerX + towerW + 14, ground - 70, 70, 70, mix([215, 190, 160], [80, 70, 70], t));
  for (let w = 0; w < 4; w++)
    rect(towerX + towerW + 22 + w * 16, ground - 58, 9, 10, [60, 80, 110]);
  // Trees sliding past in the foreground (the camera moves).
  for (let i = 0; i < 6; i++) {
    const x = (Math.round(((i * 97 - t * 140) % (WIDTH + 60)) + WIDTH + 60) % (WIDTH + 60)) - 30;
    for (let y = -14; y <= 14; y++)
      for (let dx = -12; dx <= 12; dx++)
        if (dx * dx + y * y <= 150)
          set(x + dx, ground - 10 + y, mix([60, 130, 70], [25, 60, 35], t));
    rect(x - 2, ground + 2, 4, 12, [90, 60, 40]);
  }
  return px;
}

/** A PNG of RGBA pixels (8-bit truecolour with alpha). */
function png(px) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc((WIDTH * 4 + 1) * HEIGHT);
  for (let y = 0; y < HEIGHT; y++)
    Buffer.from(px.buffer, y * WIDTH * 4, WIDTH * 4).copy(raw, y * (WIDTH * 4 + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const encoder = await HME.createH264MP4Encoder();
encoder.width = WIDTH;
encoder.height = HEIGHT;
encoder.frameRate = FPS;
encoder.quantizationParameter = 30;
encoder.groupOfPictures = FPS;
encoder.initialize();
const total = FPS * SECONDS;
for (let i = 0; i < total; i++) encoder.addFrameRgba(frame(i / (total - 1)));
encoder.finalize();
const mp4 = encoder.FS.readFile(encoder.outputFilename);
encoder.delete();
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'recorrido.mp4'), mp4);
writeFileSync(join(out, 'recorrido-poster.png'), png(frame(0.55)));
console.log(
  `wrote ${join(out, 'recorrido.mp4')} (${mp4.length} bytes, ${total} frames) and its poster`,
);
