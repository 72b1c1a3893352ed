import { runFfmpeg } from '../src/media/voice-note.js';

/** What the app's recorder produces: WebM with Opus (here stereo, a tone of `seconds`), made by ffmpeg itself. */
export const recordedWebm = (seconds = 1.5): Promise<Buffer> =>
  runFfmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-ac', '2', '-c:a', 'libopus', '-f', 'webm', 'pipe:1'], Buffer.alloc(0));
