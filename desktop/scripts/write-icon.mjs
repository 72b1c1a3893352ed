// Writes the app icon for electron-builder (dist/icons/icon.png, 1024 px) from the code that draws the
// tray icon, so the repository needs no binary image. Run after build:main.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { drawIconPng } from '../dist/main/icon.js';

const out = path.resolve(import.meta.dirname, '../dist/icons/icon.png');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, drawIconPng(1024));
