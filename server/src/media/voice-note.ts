import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { AppError } from '../errors.js';
import { OGG_OPUS_MIMETYPE } from './ogg.js';

/**
 * Voice notes as phones play them: Ogg/Opus, mono, 48 kHz. The recorder of the app (a browser's
 * MediaRecorder) produces WebM, which iPhones and many Androids do not play as a voice note.
 *
 * ffmpeg: FFMPEG_PATH when set (the Docker image sets Debian's), else the binary shipped in the
 * @ffmpeg-installer/ffmpeg package for this platform, else `ffmpeg` on the PATH.
 */
const require = createRequire(import.meta.url);

export const ffmpegPath = (): string => {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  try {
    return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    // No binary for this platform in the package.
    return 'ffmpeg';
  }
};

export const VOICE_NOTE_MIMETYPE = OGG_OPUS_MIMETYPE;

/** A voice note's output is small (32 kbit/s); anything much larger is not a voice note. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** Runs ffmpeg over `input` (stdin to stdout); rejects with its last error lines. */
export const runFfmpeg = (args: string[], input: Buffer, options: { timeoutMs?: number; ffmpeg?: string } = {}): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const child = spawn(options.ffmpeg ?? ffmpegPath(), ['-hide_banner', '-loglevel', 'error', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let failed: Error | undefined;
    const timer = setTimeout(() => {
      failed = new Error(`ffmpeg took longer than ${options.timeoutMs ?? 60_000} ms`);
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_OUTPUT_BYTES && !failed) {
        failed = new Error('ffmpeg output too large');
        child.kill('SIGKILL');
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-2000);
    });
    // ffmpeg may stop reading early (bad input): its exit code says why, not the broken pipe.
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failed) reject(failed);
      else if (code !== 0) reject(new Error(`ffmpeg exited with ${code}: ${err.trim()}`));
      else resolve(Buffer.concat(out));
    });
    child.stdin.end(input);
  });

/**
 * Any audio (or a video's sound) ffmpeg reads, as an Ogg/Opus mono voice note. ERR_UNSUPPORTED_MEDIA_TYPE
 * when ffmpeg cannot read it. Runs a process: never call it inside a database transaction.
 */
export const toVoiceNote = async (input: Buffer, options: { timeoutMs?: number; ffmpeg?: string } = {}): Promise<Buffer> => {
  try {
    return await runFfmpeg(
      ['-i', 'pipe:0', '-vn', '-map_metadata', '-1', '-ac', '1', '-ar', '48000', '-c:a', 'libopus', '-b:a', '32k', '-application', 'voip', '-f', 'ogg', 'pipe:1'],
      input,
      options,
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { reason: 'the voice note could not be converted' });
  }
};
