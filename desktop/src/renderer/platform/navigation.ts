/** A full reload at `path`: drops every in-memory state (the session has ended elsewhere). */
export const reloadApp = (path = '/'): void => {
  window.location.assign(path);
};
