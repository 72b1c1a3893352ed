// What other modules may use of this one: nothing yet. The external messages API is reached over HTTP
// only (module.ts holds its routes and jobs, composed by the app).
export {};
