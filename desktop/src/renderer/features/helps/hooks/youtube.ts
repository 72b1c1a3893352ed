/** A YouTube video id is 11 characters of A-Z, a-z, 0-9, _ and -. */
const ID = /^[A-Za-z0-9_-]{11}$/;
const HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

/**
 * The video id in what a super user typed: the id itself, or a youtu.be, watch?v=, embed, shorts, live
 * or /v/ link. Null when it is none of these (nothing is embedded from elsewhere).
 */
export const youtubeId = (video: string | null | undefined): string | null => {
  const value = (video ?? '').trim();
  if (ID.test(value)) return value;
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  let candidate: string | null = null;
  if (host === 'youtu.be' || host === 'www.youtu.be') candidate = url.pathname.split('/')[1] ?? null;
  else if (HOSTS.has(host)) {
    const [first, second] = url.pathname.split('/').filter(Boolean);
    candidate = first === 'watch' ? url.searchParams.get('v') : ['embed', 'shorts', 'live', 'v'].includes(first ?? '') ? (second ?? null) : null;
  }
  return candidate && ID.test(candidate) ? candidate : null;
};

export const thumbnailUrl = (id: string): string => `https://img.youtube.com/vi/${id}/mqdefault.jpg`;
export const embedUrl = (id: string): string => `https://www.youtube.com/embed/${id}?autoplay=1&rel=0`;
