// PNG in and out for the visual checks, with Node's zlib only: the screenshots Chromium takes
// (8-bit RGB or RGBA, not interlaced) are decoded to RGBA pixels, and baselines and diff images
// are written as 8-bit RGBA. Any other kind of PNG is refused rather than misread.
import { crc32, deflateSync, inflateSync } from "node:zlib";

export type Image = { width: number; height: number /** RGBA, row after row. */; data: Uint8Array };

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

export function decodePng(file: Uint8Array): Image {
  const buffer = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (!buffer.subarray(0, 8).equals(SIGNATURE)) throw new Error("Not a PNG file");
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < buffer.length; ) {
    const length = buffer.readUInt32BE(at);
    const type = buffer.toString("latin1", at + 4, at + 8);
    const body = buffer.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) {
        throw new Error(`Unsupported PNG (bit depth ${depth}, colour type ${colour})`);
      }
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    const up = row - stride;
    // One loop per filter type: a page is millions of bytes, decoded for every comparison.
    if (filter === 0) rows.set(line, row);
    else if (filter === 1) {
      for (let i = 0; i < stride; i++)
        rows[row + i] =
          (line[i] as number) + (i >= channels ? (rows[row + i - channels] as number) : 0);
    } else if (filter === 2) {
      for (let i = 0; i < stride; i++)
        rows[row + i] = (line[i] as number) + (y > 0 ? (rows[up + i] as number) : 0);
    } else if (filter === 3) {
      for (let i = 0; i < stride; i++) {
        const a = i >= channels ? (rows[row + i - channels] as number) : 0;
        const b = y > 0 ? (rows[up + i] as number) : 0;
        rows[row + i] = (line[i] as number) + ((a + b) >> 1);
      }
    } else if (filter === 4) {
      for (let i = 0; i < stride; i++) {
        const a = i >= channels ? (rows[row + i - channels] as number) : 0;
        const b = y > 0 ? (rows[up + i] as number) : 0;
        const c = y > 0 && i >= channels ? (rows[up + i - channels] as number) : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        rows[row + i] = (line[i] as number) + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
    } else throw new Error(`Unknown PNG filter ${filter}`);
  }
  if (channels === 4) return { width, height, data: rows };
  const data = new Uint8Array(width * height * 4);
  for (let p = 0, q = 0; p < rows.length; p += 3, q += 4) {
    data[q] = rows[p] ?? 0;
    data[q + 1] = rows[p + 1] ?? 0;
    data[q + 2] = rows[p + 2] ?? 0;
    data[q + 3] = 255;
  }
  return { width, height, data };
}

function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
  return Buffer.concat([head, body, tail]);
}

export function encodePng(image: Image): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const stride = image.width * 4;
  const raw = Buffer.alloc(image.height * (stride + 1));
  for (let y = 0; y < image.height; y++) {
    // Filter "up" for every row: a fair size for screenshots at no cost in code.
    raw[y * (stride + 1)] = 2;
    for (let i = 0; i < stride; i++) {
      const value = image.data[y * stride + i] ?? 0;
      const above = y > 0 ? (image.data[(y - 1) * stride + i] ?? 0) : 0;
      raw[y * (stride + 1) + 1 + i] = (value - above) & 255;
    }
  }
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** The rectangle x, y, width, height of an image (clamped to it), as an image of its own. */
export function crop(image: Image, x: number, y: number, width: number, height: number): Image {
  const left = Math.max(0, Math.min(image.width, x));
  const top = Math.max(0, Math.min(image.height, y));
  const w = Math.max(0, Math.min(image.width - left, width));
  const h = Math.max(0, Math.min(image.height - top, height));
  const data = new Uint8Array(w * h * 4);
  for (let row = 0; row < h; row++) {
    const from = ((top + row) * image.width + left) * 4;
    data.set(image.data.subarray(from, from + w * 4), row * w * 4);
  }
  return { width: w, height: h, data };
}
