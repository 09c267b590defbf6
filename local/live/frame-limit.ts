/**
 * API Gateway closes a WebSocket connection whose client sends a frame of more than 32 KB, even
 * within a message of less than 128 KB (the quotas' note, functions/live/model/live-limits.ts). The
 * `ws` library limits messages, not frames, so the local server reads the frame headers of what a
 * client sends (RFC 6455 section 5.2: two bytes, then a 16- or 64-bit length when the 7-bit one is
 * 126 or 127, then the mask) and says when a frame's payload is over the limit.
 */
export class FrameSizeWatch {
  private pending: Buffer = Buffer.alloc(0);
  /** Payload bytes of the current frame still to pass. */
  private skipping = 0;

  public constructor(private readonly limitBytes: number) {}

  /** Take the next bytes the client sent; true as soon as a frame over the limit has begun. */
  public push(chunk: Buffer): boolean {
    let data: Buffer = chunk;
    while (data.length > 0) {
      if (this.skipping > 0) {
        const passed = Math.min(this.skipping, data.length);
        this.skipping -= passed;
        data = data.subarray(passed);
        continue;
      }
      this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
      data = Buffer.alloc(0);
      const header = frameHeader(this.pending);
      if (header === undefined) return false;
      if (header.payloadBytes > this.limitBytes) return true;
      data = this.pending.subarray(header.headerBytes);
      this.pending = Buffer.alloc(0);
      this.skipping = header.payloadBytes;
    }
    return false;
  }
}

/** The sizes a frame header gives, or undefined while its bytes are not all there. */
function frameHeader(bytes: Buffer): { headerBytes: number; payloadBytes: number } | undefined {
  if (bytes.length < 2) return undefined;
  const short = (bytes[1] as number) & 0x7f;
  const masked = ((bytes[1] as number) & 0x80) !== 0;
  const lengthBytes = short === 126 ? 2 : short === 127 ? 8 : 0;
  const headerBytes = 2 + lengthBytes + (masked ? 4 : 0);
  if (bytes.length < headerBytes) return undefined;
  const payloadBytes = short === 126 ? bytes.readUInt16BE(2) : short === 127 ? Number(bytes.readBigUInt64BE(2)) : short;
  return { headerBytes, payloadBytes };
}
