import { useRef, type SyntheticEvent } from 'react';

/**
 * An audio message whose length shows before it is played (the browser reads the file's header, not the
 * whole file). A recording made by MediaRecorder (webm) has no length in its header: the browser reports
 * an infinite duration until it has read everything, so the player seeks past the end once, which makes
 * it read the file and learn the length, and then goes back to the start.
 */
export function AudioPlayer({ src, testId }: { src: string; testId: string }) {
  const probing = useRef(false);
  const onLoadedMetadata = (e: SyntheticEvent<HTMLAudioElement>) => {
    const audio = e.currentTarget;
    if (Number.isFinite(audio.duration)) return;
    probing.current = true;
    audio.currentTime = Number.MAX_SAFE_INTEGER;
  };
  const onDurationChange = (e: SyntheticEvent<HTMLAudioElement>) => {
    const audio = e.currentTarget;
    if (!probing.current || !Number.isFinite(audio.duration)) return;
    probing.current = false;
    audio.currentTime = 0;
  };
  return (
    <audio
      controls
      preload="metadata"
      src={src}
      style={{ maxWidth: '100%' }}
      data-testid={testId}
      onLoadedMetadata={onLoadedMetadata}
      onDurationChange={onDurationChange}
    />
  );
}
