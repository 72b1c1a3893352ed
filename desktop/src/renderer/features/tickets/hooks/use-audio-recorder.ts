import { useCallback, useEffect, useRef, useState } from 'react';
import { AUDIO_MIN_BYTES } from '@atrium/shared';

export type RecorderState = 'idle' | 'recording';

/** 128 kbps (spec 01 section 9). */
const AUDIO_BITRATE = 128000;

/**
 * Records a voice note with MediaRecorder: idle → recording → sent (onRecorded) or cancelled.
 * Recordings under 10000 bytes are dropped silently.
 */
export function useAudioRecorder(onRecorded: (file: File) => void | Promise<void>, onError: (err: unknown) => void) {
  const [state, setState] = useState<RecorderState>('idle');
  const [startedAt, setStartedAt] = useState(0);
  const [elapsed, setElapsed] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const cancelled = useRef(false);
  const chunks = useRef<Blob[]>([]);
  const callbacks = useRef({ onRecorded, onError });
  callbacks.current = { onRecorded, onError };

  const release = () => {
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    recorder.current = null;
  };

  // Whole seconds since recording began, counted from the clock (a tick only refreshes the display).
  useEffect(() => {
    if (state !== 'recording') return;
    const tick = () => setElapsed(Math.max(0, Math.floor((Date.now() - startedAt) / 1000)));
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [state, startedAt]);

  useEffect(
    () => () => {
      cancelled.current = true;
      if (recorder.current && recorder.current.state !== 'inactive') recorder.current.stop();
      release();
    },
    [],
  );

  const start = useCallback(async () => {
    try {
      const media = await navigator.mediaDevices.getUserMedia({ audio: true });
      stream.current = media;
      const rec = new MediaRecorder(media, { audioBitsPerSecond: AUDIO_BITRATE });
      chunks.current = [];
      cancelled.current = false;
      rec.ondataavailable = (e: BlobEvent) => {
        if (e.data && e.data.size > 0) chunks.current.push(e.data);
      };
      rec.onstop = () => {
        const type = rec.mimeType || 'audio/webm';
        const blob = new Blob(chunks.current, { type });
        chunks.current = [];
        release();
        setState('idle');
        if (cancelled.current || blob.size < AUDIO_MIN_BYTES) return;
        const ext = type.includes('ogg') ? 'ogg' : type.includes('mp4') ? 'm4a' : 'webm';
        void callbacks.current.onRecorded(new File([blob], `audio-${Date.now()}.${ext}`, { type }));
      };
      recorder.current = rec;
      rec.start();
      setStartedAt(Date.now());
      setElapsed(0);
      setState('recording');
    } catch (err) {
      release();
      setState('idle');
      callbacks.current.onError(err);
    }
  }, []);

  const stop = useCallback((cancel: boolean) => {
    cancelled.current = cancel;
    const rec = recorder.current;
    if (rec && rec.state !== 'inactive') rec.stop();
    else {
      release();
      setState('idle');
    }
  }, []);

  return { state, elapsed, start, send: () => stop(false), cancel: () => stop(true) };
}
