/**
 * The shape another language must match: the same keys as the English file, any strings. A missing or
 * extra key fails the type check, so a language cannot silently fall behind.
 */
export type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
