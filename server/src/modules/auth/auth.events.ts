/** The auth module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /** `othersEnded`: the login ended every other session of the user (one session per user, the default). */
    'auth.login': { companyId: number; userId: number; email: string; othersEnded: boolean };
    /** The session logged out (DELETE /auth/logout): its sockets close. */
    'auth.logout': { companyId: number; userId: number; sessionId: string };
    /** The user set a new password with an e-mailed code: every session of theirs has ended. */
    'auth.password-reset': { companyId: number; userId: number };
  }
}

export {};
