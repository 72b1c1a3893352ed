/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API server for `vite` development (the built app uses its own origin or the desktop's server). */
  readonly VITE_SERVER_URL?: string;
}
